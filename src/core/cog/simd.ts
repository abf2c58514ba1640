/**
 * Predictor 3 of Float32 blocks by a WebAssembly SIMD kernel (./predictor3.wat, built into
 * ./predictor3-wasm.ts): the running byte sums 16 bytes a step and the byte planes back into
 * samples 16 at a time, about four times the speed of the JavaScript loops of ./block.ts
 * (issue 26.5, the cold whole-grid read). Same bits as those loops (./simd.test.ts). Where
 * WebAssembly or its SIMD is missing (the module does not compile), or a row is not a
 * multiple of 16 samples, {@link predictor3Simd} says no and ./block.ts decodes in JavaScript.
 *
 * The kernel works in its own memory: a block is copied in, decoded there, and copied back
 * (two copies of its bytes, a small part of the decode). The memory grows to the largest
 * block seen (a 256 x 256 Float32 tile: 5 pages of 64 KB) and stays.
 */
import { PREDICTOR3_WASM } from './predictor3-wasm';

/** The kernel's exports (./predictor3.wat). */
interface Kernel {
  memory: WebAssembly.Memory;
  p3(buf: number, w: number, rows: number, scratch: number, nd0: number, nd1: number): void;
}

/** The compiled kernel; null when this runtime cannot run it; undefined before the first use. */
let kernel: Kernel | null | undefined;
let enabled = true;

function load(): Kernel | null {
  if (kernel !== undefined) return kernel;
  try {
    const text = atob(PREDICTOR3_WASM);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    kernel = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as Kernel;
  } catch {
    kernel = null; // no WebAssembly, or no SIMD: the JavaScript loops
  }
  return kernel;
}

/**
 * Turns the kernel on or off (tests and benchmarks compare it with the JavaScript loops).
 * @returns whether it was on
 */
export function setPredictor3Simd(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}

/** True when the kernel runs here (WebAssembly with SIMD) and is on. */
export function hasPredictor3Simd(): boolean {
  return enabled && load() !== null;
}

/**
 * Undoes predictor 3 of `rows` rows of `w` Float32 samples in `data` (each row four byte planes
 * of running differences, most significant first), in place: `data` then holds little-endian
 * samples, those whose bits are `nd0` or `nd1` (the no-data value's) as the NaN 0x7fc00000.
 * @param data at least `rows * w * 4` bytes
 * @returns false, with `data` untouched, when the kernel cannot do it (off, no WebAssembly SIMD,
 *   `w` not a multiple of 16): the caller decodes in JavaScript
 */
export function predictor3Simd(data: Uint8Array, w: number, rows: number, nd0: number, nd1: number): boolean {
  if (!enabled || w % 16 !== 0 || rows <= 0) return false;
  const k = load();
  if (!k) return false;
  const bytes = rows * w * 4, need = bytes + w * 4;
  if (k.memory.buffer.byteLength < need) k.memory.grow(Math.ceil((need - k.memory.buffer.byteLength) / 65536));
  const heap = new Uint8Array(k.memory.buffer, 0, bytes);
  heap.set(data.subarray(0, bytes));
  k.p3(0, w, rows, bytes, nd0, nd1);
  data.set(heap);
  return true;
}
