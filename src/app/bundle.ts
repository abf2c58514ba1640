/**
 * Small bundle files the app reads itself: `iso.csv` (countries and regions) and the
 * manifest (bundle version for the update prompt).
 */
import Papa from 'papaparse';
import { IndapiError } from '../core/errors';
import type { IsoEntry } from '../core/types';

/** Bundle root URL, ending in "/": `<app base>/data/`. */
export const DATA_BASE = new URL('data/', document.baseURI).href;

/** Parses iso.csv (code,name,type,members,xmin,ymin,xmax,ymax,cells). */
export function parseIsoCsv(text: string): IsoEntry[] {
  const res = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
  return res.data.map((r) => ({
    code: r.code,
    name: r.name,
    type: r.type === 'region' ? 'region' : 'country',
    members: (r.members ?? '').split('|').filter(Boolean),
    bboxDeg: [Number(r.xmin), Number(r.ymin), Number(r.xmax), Number(r.ymax)],
  }));
}

/** Loads iso.csv of the bundle. @throws IndapiError IO */
export async function loadIso(signal?: AbortSignal): Promise<IsoEntry[]> {
  const r = await fetch(new URL('iso.csv', DATA_BASE), { signal });
  if (!r.ok) throw new IndapiError('IO', `Cannot read iso.csv (HTTP ${r.status}).`);
  return parseIsoCsv(await r.text());
}

/** The bundle manifest's version fields. */
export interface ManifestInfo { name: string; version: string; created: string }

/** Loads the manifest. @throws IndapiError IO */
export async function loadManifest(signal?: AbortSignal): Promise<ManifestInfo> {
  const r = await fetch(new URL('manifest.json', DATA_BASE), { signal });
  if (!r.ok) throw new IndapiError('IO', `Cannot read the bundle manifest (HTTP ${r.status}).`);
  const j = await r.json();
  return { name: j.name, version: j.version, created: j.created };
}
