/** Entry of the pure core: no DOM, React or Node built-ins. */
export * from './grid';
export * from './errors';
export * from './types';
export * from './io/source';
export * from "./api";
