/**
 * Code cites the rules it follows where a reader can open them: the docs in this repository, or
 * an RFC by number. A bare "§10" meant the decisions file, which lives outside the repository;
 * such citations came back once after they were replaced, hence this check.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const CODE = ['*.ts', '*.tsx', '*.js', '*.mjs', '*.cjs'];
/** A section sign is fine after an RFC's number ("RFC 6749 §5.2"), and nowhere else in code. */
const BARE_SECTION = /(?<!RFC \d{4} )§/;

describe('citations in code', () => {
  it('name an RFC or a file of the repository, never a bare § of the decisions file', () => {
    const files = execFileSync('git', ['ls-files', '--', ...CODE], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((path) => path !== '' && path !== 'apps/e2e/test/citations.test.ts');
    const bare = files.flatMap((path) =>
      readFileSync(`${root}/${path}`, 'utf8')
        .split('\n')
        .flatMap((line, at) =>
          BARE_SECTION.test(line) ? [`${path}:${at + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(bare).toEqual([]);
  });
});
