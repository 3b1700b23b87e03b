import { afterAll, beforeAll } from 'vitest';
import { Session } from '../session/session.js';

/**
 * Integration-test fixture: before the file's tests, opens a session and creates the tree database
 * `db`; after them, deletes it and closes the session. `use` receives the open session.
 */
export function useTreeDatabase(server: { host: string; port: number }, db: string, use: (s: Session) => void): void {
  let session: Session | undefined;
  beforeAll(async () => {
    session = new Session(server);
    await session.open();
    await session.executeNonQueryStatement(`CREATE DATABASE ${db}`);
    use(session);
  });
  afterAll(async () => {
    try {
      await session?.executeNonQueryStatement(`DELETE DATABASE ${db}`);
    } finally {
      await session?.close();
    }
  });
}
