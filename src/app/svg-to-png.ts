/**
 * Renders an SVG document to PNG bytes on the page (an `<img>` drawn on a canvas), so
 * plot and hist images use the browser's fonts. Used as genFile's rasterizer from the
 * files worker through Comlink, and by the map export (map-export.ts).
 * @param svg the SVG document
 * @param size output size in pixels (the SVG is scaled to it); default the SVG's own size
 */
export async function svgToPng(svg: string, size?: { width: number; height: number }): Promise<Uint8Array> {
  const img = await svgImage(svg);
  const w = size?.width ?? (img.naturalWidth || 800), h = size?.height ?? (img.naturalHeight || 600);
  const c = document.createElement('canvas');
  c.width = w; c.height = h;
  const g = c.getContext('2d')!;
  g.fillStyle = '#fff';
  g.fillRect(0, 0, w, h);
  g.drawImage(img, 0, 0, w, h);
  const blob = await new Promise<Blob>((res, rej) => c.toBlob((b) => (b ? res(b) : rej(new Error('PNG encoding failed'))), 'image/png'));
  return new Uint8Array(await blob.arrayBuffer());
}

/**
 * An SVG document decoded by the browser as an image (to draw on a canvas at any size).
 * @throws when the browser cannot decode it
 */
export async function svgImage(svg: string): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    await img.decode();
    return img;
  } finally {
    URL.revokeObjectURL(url);
  }
}
