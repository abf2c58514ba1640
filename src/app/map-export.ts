/**
 * Export of the current map view as PNG: the WebGL canvas captured in a `render` event
 * (where the drawing buffer is still valid, so no `preserveDrawingBuffer` is needed), with
 * the HTML markers on it (place labels, shape numbers), a legend, a scale bar and the
 * attribution drawn onto a 2D canvas of the map's size (CSS pixels x devicePixelRatio).
 */
import type { Map as MlMap } from 'maplibre-gl';
import type { LegendEntry } from '../ui/raster/palette';

/** What goes on the image besides the map. */
export interface MapExportInfo {
  /** Legend title, e.g. "Elevation (ETOPO5) (m)". */
  title: string;
  /** Legend entries (colour and label), at most 14 drawn. */
  legend: LegendEntry[];
  /** Attribution line(s): data sources and licences. */
  attribution: string;
}

/** Earth's equatorial circumference in metres (WGS84), for the Web Mercator scale. */
const EARTH_M = 40075016.686;

/**
 * A scale bar for a Web Mercator view: the longest 1/2/5 x 10^k km that fits in `maxPx`
 * pixels at latitude `lat` (degrees) and zoom `z` (MapLibre's 512-px tiles).
 */
export function scaleBar(lat: number, z: number, maxPx: number): { km: number; px: number } {
  const mPerPx = (EARTH_M * Math.cos((lat * Math.PI) / 180)) / (512 * 2 ** z);
  const maxKm = (maxPx * mPerPx) / 1000;
  const p = 10 ** Math.floor(Math.log10(maxKm));
  const km = [5, 2, 1].map((k) => k * p).find((k) => k <= maxKm) ?? p;
  return { km, px: (km * 1000) / mPerPx };
}

/** The map canvas as painted in the next frame, copied onto a new 2D canvas. */
function capture(map: MlMap): Promise<HTMLCanvasElement> {
  return new Promise((resolve) => {
    map.once('render', () => {
      const src = map.getCanvas();
      const c = document.createElement('canvas');
      c.width = src.width; c.height = src.height;
      c.getContext('2d')!.drawImage(src, 0, 0);
      resolve(c);
    });
    map.triggerRepaint();
  });
}

/** Renders the current view with legend, scale bar, attribution and labels; resolves to PNG bytes. */
export async function exportMapPng(map: MlMap, info: MapExportInfo): Promise<Blob> {
  const c = await capture(map);
  const ctx = c.getContext('2d')!;
  const cont = map.getContainer().getBoundingClientRect();
  const k = c.width / Math.max(1, cont.width);
  ctx.scale(k, k);
  const W = cont.width, H = cont.height;
  const font = (px: number, w = 400) => `${w} ${px}px "DejaVu Sans", system-ui, sans-serif`;
  // HTML markers: place labels and shape numbers
  for (const el of map.getContainer().querySelectorAll<HTMLElement>('.maplibregl-marker')) {
    const r = el.getBoundingClientRect();
    const text = el.textContent?.trim();
    if (!text) continue;
    const x = r.left - cont.left, y = r.top - cont.top + r.height / 2;
    const label = el.classList.contains('place-label');
    ctx.font = font(label ? 11.5 : 11, 700);
    ctx.textBaseline = 'middle';
    if (label) {
      ctx.fillStyle = '#1b1f24'; ctx.beginPath(); ctx.arc(x + 3, y, 2.5, 0, 2 * Math.PI); ctx.fill();
      ctx.lineWidth = 3; ctx.strokeStyle = 'rgba(255,255,255,0.9)'; ctx.strokeText(text, x + 9, y);
      ctx.fillText(text, x + 9, y);
    } else {
      ctx.fillStyle = '#d94f00'; ctx.beginPath(); ctx.arc(x + r.width / 2, y, Math.max(8, r.height / 2), 0, 2 * Math.PI); ctx.fill();
      ctx.fillStyle = '#fff'; ctx.textAlign = 'center'; ctx.fillText(text, x + r.width / 2, y); ctx.textAlign = 'left';
    }
  }
  // legend (bottom left)
  const entries = info.legend.slice(0, 14);
  const lh = 16, pad = 8;
  ctx.font = font(12, 700);
  const lw = Math.min(W - 20, Math.max(ctx.measureText(info.title).width, ...entries.map((e) => { ctx.font = font(11); return ctx.measureText(e.label).width + 22; })) + 2 * pad);
  const lhTot = pad * 2 + 18 + entries.length * lh;
  const lx = 10, ly = H - lhTot - 28;
  ctx.fillStyle = 'rgba(255,255,255,0.92)'; ctx.strokeStyle = '#aab2bc'; ctx.lineWidth = 1;
  ctx.fillRect(lx, ly, lw, lhTot); ctx.strokeRect(lx + 0.5, ly + 0.5, lw - 1, lhTot - 1);
  ctx.fillStyle = '#1b1f24'; ctx.font = font(12, 700); ctx.textBaseline = 'top';
  ctx.fillText(info.title, lx + pad, ly + pad, lw - 2 * pad);
  ctx.font = font(11);
  entries.forEach((e, i) => {
    const y = ly + pad + 18 + i * lh;
    ctx.fillStyle = e.color; ctx.fillRect(lx + pad, y + 1, 14, 12);
    ctx.strokeStyle = '#666'; ctx.strokeRect(lx + pad + 0.5, y + 1.5, 13, 11);
    ctx.fillStyle = '#1b1f24'; ctx.fillText(e.label, lx + pad + 20, y + 1, lw - 2 * pad - 20);
  });
  // scale bar (bottom right)
  const sb = scaleBar(map.getCenter().lat, map.getZoom(), Math.min(120, W / 4));
  const sx = W - 16 - sb.px, sy = H - 36;
  ctx.fillStyle = 'rgba(255,255,255,0.85)'; ctx.fillRect(sx - 4, sy - 14, sb.px + 8, 22);
  ctx.strokeStyle = '#1b1f24'; ctx.lineWidth = 2;
  ctx.beginPath(); ctx.moveTo(sx, sy - 4); ctx.lineTo(sx, sy + 4); ctx.lineTo(sx + sb.px, sy + 4); ctx.lineTo(sx + sb.px, sy - 4); ctx.stroke();
  ctx.fillStyle = '#1b1f24'; ctx.font = font(11); ctx.textBaseline = 'bottom'; ctx.textAlign = 'center';
  ctx.fillText(`${sb.km >= 1 ? sb.km : sb.km * 1000} ${sb.km >= 1 ? 'km' : 'm'}`, sx + sb.px / 2, sy + 1);
  // attribution (bottom strip)
  ctx.textAlign = 'right'; ctx.textBaseline = 'middle'; ctx.font = font(10);
  ctx.fillStyle = 'rgba(255,255,255,0.85)'; ctx.fillRect(0, H - 16, W, 16);
  ctx.fillStyle = '#333'; ctx.fillText(info.attribution, W - 6, H - 8, W - 12);
  return new Promise((res, rej) => c.toBlob((b) => (b ? res(b) : rej(new Error('The browser could not encode the PNG.'))), 'image/png'));
}
