/**
 * The Snowball English stemmer against word/stem pairs of the algorithm's published sample
 * vocabulary (snowballstem.org, english/voc.txt and output.txt) and its exceptional words.
 */
import { describe, expect, test } from 'vitest';
import { stemEnglish } from '../../../src/storage/text/porter2.js';

const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['consign', 'consign'],
  ['consigned', 'consign'],
  ['consigning', 'consign'],
  ['consignment', 'consign'],
  ['consist', 'consist'],
  ['consisted', 'consist'],
  ['consistency', 'consist'],
  ['consistent', 'consist'],
  ['consistently', 'consist'],
  ['consisting', 'consist'],
  ['consists', 'consist'],
  ['consolation', 'consol'],
  ['consolations', 'consol'],
  ['consolatory', 'consolatori'],
  ['console', 'consol'],
  ['consoled', 'consol'],
  ['consoles', 'consol'],
  ['consolidate', 'consolid'],
  ['consolidated', 'consolid'],
  ['consolidating', 'consolid'],
  ['consoling', 'consol'],
  ['consolingly', 'consol'],
  ['consonant', 'conson'],
  ['conspicuous', 'conspicu'],
  ['conspicuously', 'conspicu'],
  ['conspiracy', 'conspiraci'],
  ['conspirator', 'conspir'],
  ['conspirators', 'conspir'],
  ['conspire', 'conspir'],
  ['conspired', 'conspir'],
  ['constable', 'constabl'],
  ['constancy', 'constanc'],
  ['constant', 'constant'],
  ['knackeries', 'knackeri'],
  ['kneaded', 'knead'],
  ['kneeling', 'kneel'],
  ['knees', 'knee'],
  ['knightly', 'knight'],
  ['knitted', 'knit'],
  ['knitting', 'knit'],
  ['knives', 'knive'],
  ['knocked', 'knock'],
  ['knocker', 'knocker'],
  ['running', 'run'],
  ['runs', 'run'],
  ['ran', 'ran'],
  ['hopping', 'hop'],
  ['hoping', 'hope'],
  ['caresses', 'caress'],
  ['ponies', 'poni'],
  ['ties', 'tie'],
  ['cries', 'cri'],
  ['gas', 'gas'],
  ['gaps', 'gap'],
  ['kiwis', 'kiwi'],
  ['generously', 'generous'],
  ['generation', 'generat'],
  ['communism', 'communism'],
  ['arsenal', 'arsenal'],
  ['happily', 'happili'],
  ['cry', 'cri'],
  ['say', 'say'],
  ['by', 'by'],
  ['youth', 'youth'],
  ['agreed', 'agre'],
  ['feed', 'feed'],
  ['luxuriating', 'luxuri'],
  ['hopefulness', 'hope'],
  ['electrical', 'electr'],
  ['adjustment', 'adjust'],
  ['dog\'s', 'dog'],
  ['databases', 'databas'],
  ['database', 'databas'],
  ['blueberries', 'blueberri'],
  ['animals', 'anim'],
];

const EXCEPTIONS: ReadonlyArray<readonly [string, string]> = [
  ['skis', 'ski'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['idly', 'idl'],
  ['gently', 'gentl'],
  ['ugly', 'ugli'],
  ['early', 'earli'],
  ['only', 'onli'],
  ['singly', 'singl'],
  ['news', 'news'],
  ['atlas', 'atlas'],
  ['cosmos', 'cosmos'],
  ['bias', 'bias'],
  ['andes', 'andes'],
  ['inning', 'inning'],
  ['outings', 'outing'],
  ['succeed', 'succeed'],
];

describe('stemEnglish', () => {
  test.each(PAIRS)('%s → %s', (word, stem) => {
    expect(stemEnglish(word)).toBe(stem);
  });
  test.each(EXCEPTIONS)('exceptional %s → %s', (word, stem) => {
    expect(stemEnglish(word)).toBe(stem);
  });
  test('words of two letters or fewer are their own stems', () => {
    expect(['a', 'is', 'at', 'go'].map(stemEnglish)).toEqual(['a', 'is', 'at', 'go']);
  });
});
