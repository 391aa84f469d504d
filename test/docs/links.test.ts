import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');
const pages = [
  'README.md',
  ...fs.readdirSync(path.join(root, 'docs'), { recursive: true }).map((name) => path.join('docs', String(name))),
].filter((file) => file.endsWith('.md'));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replaceAll(' ', '-');
}

function anchorsIn(text: string): Set<string> {
  const anchors = new Set<string>();
  let inFence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6} (.*)$/.exec(line);
    if (heading?.[1]) anchors.add(anchorOf(heading[1]));
  }
  return anchors;
}

function localLinks(text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '').filter((link) => !/^[a-z]+:/i.test(link));
}

/** Every tracked text file of the project but this test, which names what it looks for. */
function projectFiles(): string[] {
  const listed = spawnSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).stdout.split('\n');
  return listed.filter(
    (file) =>
      /\.(ts|tsx|mts|mjs|js|md|json|yml|yaml|html|css)$/.test(file) && !file.endsWith('links.test.ts') && !file.includes('node_modules/'),
  );
}

describe('the manual', () => {
  it('is the only reference the code and docs point at: no DESIGN.md, no numbered sections of a spec the repository lacks', () => {
    const pointing = projectFiles().filter((file) => /DESIGN\.md|\bspec \d/i.test(fs.readFileSync(path.join(root, file), 'utf8')));
    assert.deepEqual(pointing, []);
  });

  it('keeps the README short: at most 200 lines', () => {
    const lines = fs.readFileSync(path.join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
    assert.ok(lines <= 200, `README.md has ${lines} lines`);
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = fs.readFileSync(path.join(root, page), 'utf8');
      for (const link of localLinks(text)) {
        const [file = '', anchor] = link.split('#', 2);
        const target = file === '' ? path.join(root, page) : path.resolve(path.dirname(path.join(root, page)), file);
        if (!fs.existsSync(target)) broken.push(`${page}: ${link} (no such file)`);
        else if (anchor && target.endsWith('.md') && !anchorsIn(fs.readFileSync(target, 'utf8')).has(anchor)) {
          broken.push(`${page}: ${link} (no such heading)`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });

  it('shows only images that exist, and keeps no image that no page shows', () => {
    const shown = new Set<string>();
    for (const page of pages) {
      const text = fs.readFileSync(path.join(root, page), 'utf8');
      for (const link of localLinks(text).filter((l) => /\.(png|jpe?g|svg)$/.test(l))) {
        shown.add(path.relative(root, path.resolve(path.dirname(path.join(root, page)), link)));
      }
    }
    const images = fs
      .readdirSync(path.join(root, 'docs', 'images'), { recursive: true })
      .map((name) => path.join('docs', 'images', String(name)))
      .filter((file) => /\.(png|jpe?g|svg)$/.test(file));
    assert.deepEqual(
      images.filter((image) => !shown.has(image)),
      [],
      'images no page shows',
    );
  });

  it('is linked from the README, every page', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const unlinked = pages.filter((page) => page !== 'README.md' && !readme.includes(`](${page}`));
    assert.deepEqual(unlinked, []);
  });
});
