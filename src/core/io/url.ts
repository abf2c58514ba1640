/**
 * The bundle's one URL rule, below every reader of it (the fetch sources here, the bundle
 * reader in src/core/bundle, which re-exports it).
 */

/**
 * Absolute URL of a bundle file: `base` (with or without a trailing slash) joined with the
 * relative path, each segment URL-encoded (`cog/A B.tif` -> `cog/A%20B.tif`).
 */
export function bundleUrl(base: string, rel: string): string {
  const path = rel.split('/').map(encodeURIComponent).join('/');
  return base.endsWith('/') ? base + path : `${base}/${path}`;
}
