import { ZRole } from '@chorus/validators';
import { describe, expect, it } from 'vitest';
import { parseSearch, searchField } from '../src/server/search-params';

const SEARCH = {
  q: searchField.text(10),
  role: searchField.oneOf(ZRole),
  page: searchField.page,
};

describe('parseSearch', () => {
  it('reads each field with its schema', () => {
    expect(parseSearch({ q: '  ada  ', role: 'admin', page: '3' }, SEARCH)).toEqual({
      q: 'ada',
      role: 'admin',
      page: 3,
    });
  });

  it('gives the defaults for what is absent', () => {
    expect(parseSearch({}, SEARCH)).toEqual({ q: '', role: undefined, page: 1 });
  });

  it('cuts free text to its length', () => {
    expect(parseSearch({ q: 'a'.repeat(50) }, SEARCH).q).toBe('a'.repeat(10));
  });

  it('reads a key sent twice, or junk, as if it had not been sent', () => {
    const hostile = { q: ['a', 'b'], role: 'root', page: 'abc' };
    expect(parseSearch(hostile, SEARCH)).toEqual({ q: '', role: undefined, page: 1 });
    for (const page of ['0', '-2', '1.5', '1e400', '']) {
      expect(parseSearch({ page }, SEARCH).page).toBe(1);
    }
  });

  it('reads only the fields it names, never the prototype', () => {
    const params = JSON.parse('{"__proto__": {"q": "x"}, "constructor": "y"}') as Record<
      string,
      string
    >;
    expect(parseSearch(params, { ...SEARCH, constructor: searchField.text() })).toEqual({
      q: '',
      role: undefined,
      page: 1,
      constructor: 'y',
    });
  });
});
