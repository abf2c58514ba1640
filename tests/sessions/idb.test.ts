import 'fake-indexeddb/auto';
import { describe } from 'vitest';
import { createIdbSessionStore } from '../../src/contract/idb-sessions';
import { sessionConformance } from './conformance';

let n = 0;

describe('IndexedDB session store (fake-indexeddb)', () => {
  sessionConformance('indexeddb', {
    make: async (l = {}) => createIdbSessionStore({ dbName: `conformance-${process.pid}-${n++}`, ...l }),
    async crashMidWrite(store, data) {
      // a value IndexedDB cannot clone aborts the one transaction that writes the session
      await store.put({ ...data, value: [{ ok: 1 }, { f: () => 1 }] }).then(
        () => { throw new Error('the write should have failed'); },
        () => undefined,
      );
    },
  });
});
