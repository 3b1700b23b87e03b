import { describe, expect, it } from 'vitest';
import { IoTDBServerError } from '../errors.js';
import { StatusCode, verifySuccess } from './status.js';

describe('verifySuccess', () => {
  it('accepts 200 SUCCESS and 400 REDIRECTION_RECOMMEND', () => {
    expect(() => verifySuccess({ code: StatusCode.SUCCESS }, 'x')).not.toThrow();
    expect(() => verifySuccess({ code: StatusCode.REDIRECTION_RECOMMEND, message: 'go elsewhere' }, 'x')).not.toThrow();
  });

  it.each([201, 301, 302, 500, 700, 801])('throws IoTDBServerError for code %i', (code) => {
    let err: unknown;
    try {
      verifySuccess({ code, message: `m${code}` }, 'ctx');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(IoTDBServerError);
    expect((err as IoTDBServerError).statusCode).toBe(code);
    expect((err as IoTDBServerError).message).toBe(`ctx: [${code}] m${code}`);
  });

  it('throws for a 302 MULTIPLE_ERROR even when some entries succeeded, keeping the entries', () => {
    const status = { code: StatusCode.MULTIPLE_ERROR, subStatus: [{ code: 200 }, { code: 507, message: 'bad' }] };
    expect(() => verifySuccess(status, 'batch')).toThrow(IoTDBServerError);
    try {
      verifySuccess(status, 'batch');
    } catch (e) {
      expect((e as IoTDBServerError).subStatus).toEqual(status.subStatus);
    }
  });
});

describe('StatusCode', () => {
  it("names the codes as the server's TSStatusCode does, for telling refusals apart", () => {
    expect(StatusCode).toMatchObject({
      DATABASE_ALREADY_EXISTS: 501,
      PATH_NOT_EXIST: 508,
      SEMANTIC_ERROR: 701,
      WRONG_LOGIN_PASSWORD: 801,
      NO_PERMISSION: 803,
    });
  });
});
