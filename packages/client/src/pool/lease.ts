import { IoTDBSessionClosedError } from '../errors.js';

/**
 * Lends `session` to `fn` as a view whose method calls run on the session itself while fn runs, and are
 * refused once it settles: the session is the pool's again then, maybe another borrower's, and a call through
 * a kept reference (a USE, a close()) would change that borrower's session. Java's pooled table session fails
 * the same way after its close() (its session reference set to null). Properties read through the view are the
 * session's, as are the objects its calls made (a data set, a writer): those go on working.
 */
export async function lend<S extends object, T>(session: S, fn: (session: S) => Promise<T>): Promise<T> {
  let lent = true;
  const view = new Proxy(session, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      // the session's own `this`, for its private fields
      return (...args: unknown[]): unknown => {
        if (lent) return value.apply(target, args) as unknown;
        const refused = afterReturn(key);
        // an async method rejects, as it does for any other failure
        if (Object.prototype.toString.call(value) === '[object AsyncFunction]') return Promise.reject(refused);
        throw refused;
      };
    },
  });
  try {
    return await fn(view);
  } finally {
    lent = false;
  }
}

function afterReturn(method: PropertyKey): IoTDBSessionClosedError {
  return new IoTDBSessionClosedError(
    'pooled session',
    `it went back to the pool when execute()'s function settled: call ${String(method)}() inside the function`,
  );
}
