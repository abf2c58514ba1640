/**
 * The engine worker's chunks the page preloads (vite.config.ts workerImports): the static
 * imports of the worker script and of those chunks, once each; not its dynamic imports (the
 * writers, loaded on demand), nor files the bundle does not hold.
 */
import { describe, expect, it } from 'vitest';
import { workerImports } from '../../vite.config';

const asset = (fileName: string, source: string) => ({ type: 'asset', fileName, source });

describe('workerImports', () => {
  it('follows static imports transitively, skips dynamic ones and unknown files', () => {
    const bundle = {
      w: asset('assets/engine.worker-A1.js', 'import{n as e}from"./rt-B.js";import{a}from"./common-C.js";import"./side-D.js";const x=()=>import("./writer-E.js");'),
      rt: asset('assets/rt-B.js', 'export const n=1;'),
      c: asset('assets/common-C.js', 'import{n}from"./rt-B.js";\nimport{z}from "./tiff-F.js";export const a=n;'),
      d: asset('assets/side-D.js', 'import"./missing-G.js";'),
      e: asset('assets/writer-E.js', 'import{a}from"./common-C.js";'),
      f: { type: 'chunk', fileName: 'assets/tiff-F.js', code: 'export const z=2;' },
    };
    expect(workerImports(bundle, /engine\.worker-[^/]*\.js$/)).toEqual(['./assets/rt-B.js', './assets/common-C.js', './assets/tiff-F.js', './assets/side-D.js']);
    expect(workerImports(bundle, /nothing\.js$/)).toEqual([]);
  });
});
