import { describe } from 'vitest';
import { createMemorySessionStore } from '../../src/contract/sessions';
import { sessionConformance } from './conformance';

describe('memory session store', () => {
  sessionConformance('memory', {
    make: async (l = {}) => createMemorySessionStore(l),
    async crashMidWrite(store, data) {
      // a value that cannot be cloned fails the write half-way through copying the session
      await store.put({ ...data, value: [{ ok: 1 }, { f: () => 1 }] }).then(
        () => { throw new Error('the write should have failed'); },
        () => undefined,
      );
    },
  });
});
