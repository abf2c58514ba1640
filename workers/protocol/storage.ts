/**
 * Messages the service worker (workers/sw-data.ts) posts to the page about the data bundle
 * it stores (precache, "keep offline" pins, storage status), read by the storage panel
 * (src/app/panels/StoragePanel.tsx), and what the page asks it ({@link PageToSw}). Types only.
 */

/** Progress of precaching the small files, posted as `{ type: 'bundle-progress', ... }`. */
export interface PrecacheProgress {
  version: string;
  done: number;
  total: number;
  bytes: number;
  totalBytes: number;
  complete: boolean;
  error?: string;
}

/** A pinned ("keep offline") file. */
export interface Pin {
  path: string;
  sha256: string;
  bytes: number;
  /** When it was stored, ms since epoch. */
  at: number;
}

/** Progress of a pin job, posted as `{ type: 'pin-progress', ... }`. */
export interface PinProgress {
  id: string;
  done: number;
  total: number;
  bytes: number;
  totalBytes: number;
  complete: boolean;
  cancelled?: boolean;
  error?: string;
}

/** What is stored, posted as `{ type: 'storage-status', ... }` for the storage panel. */
export interface StorageStatus {
  version: string;
  pins: Pin[];
  /** COGs with cached blocks, most recently used first. */
  recent: Array<{ path: string; sha256: string; bytes: number; used: number }>;
  /** Bytes of cached COG blocks, of pinned files, of precached small files. */
  blockBytes: number;
  pinnedBytes: number;
  filesBytes: number;
  budgetBytes: number;
  /** navigator.storage.estimate() of the origin, when available. */
  usage?: number;
  quota?: number;
  /** The last storage-full failure, if any. */
  quotaError?: string;
}

/** The service worker's answer to `OFFLINE_READY` (on the port sent with it): whether everything this visit showed is stored. */
export interface OfflineReady {
  type: 'offline-ready';
  complete: boolean;
  error?: string;
}

/** Messages the service worker posts to the page, told apart by `type`. */
export type SwToPage =
  | ({ type: 'bundle-progress' } & PrecacheProgress)
  | ({ type: 'pin-progress' } & PinProgress)
  | ({ type: 'storage-status' } & StorageStatus)
  | { type: 'storage-full'; message: string }
  | { type: 'bundle-updated'; version: string }
  | { type: 'version'; build: string; prefix: string }
  | OfflineReady;

/** Messages the page posts to the service worker (workers/sw.ts). */
export type PageToSw =
  | { type: 'SKIP_WAITING' | 'PRECACHE' | 'VERSION' | 'STORAGE_STATUS' | 'CLEAR_STORAGE' | 'OFFLINE_READY' }
  | { type: 'PIN'; id: string; paths: string[] }
  | { type: 'CANCEL_PIN'; id: string }
  | { type: 'FREE'; paths: string[] }
  | { type: 'SET_BUDGET'; bytes: number };
