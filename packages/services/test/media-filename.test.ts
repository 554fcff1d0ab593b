import { describe, expect, it } from 'vitest';
import { cleanFilename } from '../src';

describe('cleanFilename', () => {
  it('keeps the base name only, without control characters', () => {
    expect(cleanFilename('C:\\Users\\ada\\photo.png', 'image/png')).toBe('photo.png');
    expect(cleanFilename('../../etc/pass\u0007wd\u007f.png', 'image/png')).toBe('passwd.png');
  });

  it('names a nameless file after its detected type', () => {
    expect(cleanFilename(undefined, 'application/pdf')).toBe('upload.pdf');
    expect(cleanFilename('  \u0001 ', 'image/jpeg')).toBe('upload.jpeg');
  });

  it('cuts at 255 characters without splitting one', () => {
    const name = cleanFilename(`${'😀'.repeat(300)}.png`, 'image/png');
    expect([...name]).toHaveLength(255);
    expect(name.endsWith('😀')).toBe(true);
  });
});
