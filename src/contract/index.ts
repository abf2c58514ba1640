/** The OpenCPU-compatible HTTP contract: one Fetch API handler for the service worker and the Node server. */
export { createHandler, errorResponse, LIBRARY, DEFAULT_MAX_BODY_BYTES, type HandlerOptions } from './handler';
export { BusyError, CHEAP_METHODS, executeCall, type CallOutput, type MethodCall, type MethodRunner } from './run';
export { DEFAULT_LIMITS, type CallLimits } from './limits';
export { METHODS, METHOD_BY_NAME, type GenFile, type GenFileInput, type GenFileOutput, type MethodSpec } from './methods';
export * from './sessions';
export { parseRLiteral, type RValue } from './rliteral';
export { deparse, deparseCall } from './deparse';
export { STATUS_BY_CODE, statusFor } from './status';
