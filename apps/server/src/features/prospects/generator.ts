import type { Faker, LocaleDefinition } from '@faker-js/faker';
import { faker as fakerDe } from '@faker-js/faker/locale/de';
import { faker as fakerEnAu } from '@faker-js/faker/locale/en_AU';
import { faker as fakerEnCa } from '@faker-js/faker/locale/en_CA';
import { faker as fakerEnGb } from '@faker-js/faker/locale/en_GB';
import { faker as fakerEnIn } from '@faker-js/faker/locale/en_IN';
import { faker as fakerEnUs } from '@faker-js/faker/locale/en_US';
import { faker as fakerEs } from '@faker-js/faker/locale/es';
import { faker as fakerFr } from '@faker-js/faker/locale/fr';
import { faker as fakerNl } from '@faker-js/faker/locale/nl';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import type { CountryCode } from 'libphonenumber-js';
import { PEOPLE_DOMAINS, createRandom, foldName, type TCorpusEntry, type TRandom } from '@verilead/mailworld';
import {
  CITIES,
  DEPARTMENTS,
  INDUSTRIES,
  SENIORITIES,
  SIZE_BANDS,
  TECHNOLOGIES,
  makeTitle,
  type TCity,
  type TDepartment,
  type TSeniority,
} from './directory-data';
import type { TCompanyRecord, TPersonRecord } from './records';

/**
 * The deterministic demo directory: the same seed gives the same companies and people, byte for byte.
 * Names come from faker's locale of the person's city, cities are real, phones are valid for their country
 * (libphonenumber-js), work e-mails live on the local mail world's company domains (so enrichment really verifies
 * them) and personal ones on gmail.com. About 8 % of people have an address that no longer exists (they left).
 */

const createRng = createRandom;
type TRng = TRandom;

/**
 * The locales of the directory's cities. faker's package root imports all of its ~70 locales (about 16 MB of heap);
 * each locale's own entry point imports only that locale with its fallbacks (`[de, en, base]` for `de`), about a third
 * of that for these nine. Their instances are shared, so each run builds its own seeded instances from their data.
 */
const LOCALE_FAKERS: Record<string, Faker> = {
  en_US: fakerEnUs,
  en_CA: fakerEnCa,
  en_GB: fakerEnGb,
  en_AU: fakerEnAu,
  en_IN: fakerEnIn,
  de: fakerDe,
  fr: fakerFr,
  es: fakerEs,
  nl: fakerNl,
};
/** faker's Faker class (the package root exports it, but importing the root loads every locale). */
const FakerClass = fakerEnUs.constructor as new (opts: { locale: LocaleDefinition }) => Faker;

function makeFakers(seed: number): Record<string, Faker> {
  const out: Record<string, Faker> = {};
  for (const [name, shared] of Object.entries(LOCALE_FAKERS)) {
    const f = new FakerClass({ locale: shared.rawDefinitions });
    f.seed(seed);
    out[name] = f;
  }
  return out;
}

/** Cities drawn by weight (≈ √population). */
function cityPicker(rng: TRng) {
  const total = CITIES.reduce((s, c) => s + c.weight, 0);
  return (): TCity => {
    let r = rng.next() * total;
    for (const c of CITIES) {
      r -= c.weight;
      if (r <= 0) return c;
    }
    return CITIES[CITIES.length - 1]!;
  };
}

// ---------- phones ----------

const MOBILE_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);
const FIXED_TYPES = new Set(['FIXED_LINE', 'FIXED_LINE_OR_MOBILE']);

/** A number template: leading E.164 digits kept, the last `free` digits drawn; checked once on samples. */
type TPhoneTemplate = { head: string; free: number; verified: boolean };
const templates = new Map<string, TPhoneTemplate>();

function checkTemplate(head: string, free: number, types: Set<string>, rng: TRng): boolean {
  for (let i = 0; i < 24; i += 1) {
    const p = parsePhoneNumberFromString(`+${head}${randomDigits(rng, free)}`);
    if (!p || !p.isValid() || !types.has(p.getType() ?? '')) return false;
  }
  return true;
}

function randomDigits(rng: TRng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i += 1) s += String(rng.int(10));
  return s;
}

function template(key: string, make: () => TPhoneTemplate): TPhoneTemplate {
  let t = templates.get(key);
  if (!t) {
    t = make();
    templates.set(key, t);
  }
  return t;
}

/** A valid phone number of the type in the city's country (E.164). */
export function makePhone(rng: TRng, city: TCity, type: 'mobile' | 'fixed_line'): string {
  const types = type === 'mobile' ? MOBILE_TYPES : FIXED_TYPES;
  const t = template(`${city.country}:${city.city}:${type}`, () => {
    const checker = createRng(7);
    if (type === 'mobile') {
      const example = (mobileExamples as Record<string, string>)[city.country]!;
      const full = parsePhoneNumberFromString(example, city.country as CountryCode)!.number.slice(1);
      return { head: full.slice(0, full.length - 4), free: 4, verified: checkTemplate(full.slice(0, full.length - 4), 4, types, checker) };
    }
    // The national length: the shortest total that makes a valid fixed line after this prefix.
    let totalDigits = city.areaPrefix.length + 7;
    for (let total = city.areaPrefix.length + 4; total <= 13; total += 1) {
      const sample = parsePhoneNumberFromString(`+${city.areaPrefix}${'2345678901'.slice(0, total - city.areaPrefix.length)}`);
      if (sample?.isValid() && types.has(sample.getType() ?? '')) {
        totalDigits = total;
        break;
      }
    }
    const free = Math.min(4, totalDigits - city.areaPrefix.length);
    const head = `${city.areaPrefix}${'2345678'.slice(0, totalDigits - city.areaPrefix.length - free)}`;
    return { head, free, verified: checkTemplate(head, free, types, checker) };
  });
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const n = `+${t.head}${randomDigits(rng, t.free)}`;
    if (t.verified) return n;
    const p = parsePhoneNumberFromString(n);
    if (p?.isValid() && types.has(p.getType() ?? '')) return n;
  }
  return `+${t.head}${'0'.repeat(t.free)}`;
}

// ---------- companies ----------

/** Company mail domains of the mail world that verify (no greylisting): work addresses live there. */
export const MAIL_DOMAINS = PEOPLE_DOMAINS.filter((d) => d.scenario !== 'greylist');

function slug(s: string): string {
  return foldName(s.replace(/&/g, ' and ')).slice(0, 24) || 'company';
}

export type TGeneratedCompany = TCompanyRecord & { mail_domain: string; mail_pattern: string; weight: number };

/** `count` companies (deterministic for `seed`). */
export function generateCompanies(count: number, seed: number): TGeneratedCompany[] {
  const rng = createRng(seed);
  const fakers = makeFakers(seed);
  const pickCity = cityPicker(rng);
  const domains = new Set<string>();
  const out: TGeneratedCompany[] = [];
  for (let i = 0; i < count; i += 1) {
    const city = pickCity();
    const f = fakers[city.locale]!;
    const name = f.company.name();
    let domain = `${slug(name)}.${city.tld}`;
    for (let n = 2; domains.has(domain); n += 1) domain = `${slug(name)}${n}.${city.tld}`;
    domains.add(domain);
    // Size is skewed small, as in real company populations.
    const bandIndex = Math.min(SIZE_BANDS.length - 1, Math.floor(-Math.log(1 - rng.next() * 0.9999) * 1.6));
    const band = SIZE_BANDS[bandIndex]!;
    const employees = band.min + rng.int(band.max - band.min + 1);
    const industry = rng.pick(INDUSTRIES);
    const revenue = Math.round(employees * (60_000 + rng.int(240_000)));
    const techCount = 2 + rng.int(6);
    const tech = new Set<string>();
    while (tech.size < techCount) tech.add(rng.pick(TECHNOLOGIES));
    const mail = rng.pick(MAIL_DOMAINS);
    out.push({
      external_id: `demo-c-${seed}-${i}`,
      name,
      domain,
      industry: industry.label,
      industry_code: industry.code,
      employees,
      revenue_usd: revenue,
      founded_year: 2024 - Math.min(120, Math.floor(-Math.log(1 - rng.next() * 0.999) * 18)),
      technologies: [...tech].sort(),
      country: city.country,
      region: city.region,
      city: city.city,
      phone: makePhone(rng, city, 'fixed_line'),
      linkedin_url: `https://www.linkedin.com/company/${slug(name)}-${i.toString(36)}`,
      mail_domain: mail.domain,
      mail_pattern: mail.pattern,
      // Bigger companies have more people in the directory.
      weight: Math.log2(employees + 1),
    });
  }
  return out;
}

// ---------- people ----------

const SENIORITY_WEIGHTS: Record<TSeniority, number> = { owner: 1, founder: 2, c_suite: 3, partner: 1, vp: 4, head: 5, director: 8, manager: 16, senior: 22, entry: 32, intern: 6 };

function makeLocal(pattern: string, first: string, last: string): string {
  const f = foldName(first) || 'x';
  const l = foldName(last) || 'x';
  switch (pattern) {
    case 'flast':
      return `${f[0]}${l}`;
    case 'first_last':
      return `${f}_${l}`;
    case 'f.last':
      return `${f[0]}.${l}`;
    case 'firstlast':
      return `${f}${l}`;
    case 'first':
      return f;
    default:
      return `${f}.${l}`;
  }
}

export type TGeneratedPerson = TPersonRecord & { mailbox_exists: boolean };

/**
 * `count` people spread over `companies` (bigger companies get more), deterministic for `seed`. Yields in order so
 * a million people never sit in memory at once; `emails` keeps addresses unique.
 */
export function* generatePeople(count: number, companies: readonly TGeneratedCompany[], seed: number): Generator<TGeneratedPerson> {
  const rng = createRng(seed ^ 0x5eed);
  const fakers = makeFakers(seed + 1);
  const totalWeight = companies.reduce((s, c) => s + c.weight, 0);
  const cumulative: number[] = [];
  let acc = 0;
  for (const c of companies) cumulative.push((acc += c.weight));
  const pickCompany = () => {
    const r = rng.next() * totalWeight;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return companies[lo]!;
  };
  const seniorityTotal = Object.values(SENIORITY_WEIGHTS).reduce((a, b) => a + b, 0);
  const pickSeniority = (): TSeniority => {
    let r = rng.next() * seniorityTotal;
    for (const s of SENIORITIES) {
      r -= SENIORITY_WEIGHTS[s];
      if (r <= 0) return s;
    }
    return 'entry';
  };
  const emails = new Set<string>();
  const pickN = (n: number) => rng.int(n);
  for (let i = 0; i < count; i += 1) {
    const company = pickCompany();
    const city = CITIES.find((c) => c.city === company.city) ?? CITIES[0]!;
    const f = fakers[city.locale]!;
    const first = f.person.firstName();
    const last = f.person.lastName();
    const seniority = pickSeniority();
    const department: TDepartment = rng.pick(DEPARTMENTS);
    const personal = rng.chance(0.12);
    const domain = personal ? 'gmail.com' : company.mail_domain;
    const baseLocal = makeLocal(personal ? 'first.last' : company.mail_pattern, first, last);
    let local = baseLocal;
    for (let n = 2; emails.has(`${local}@${domain}`); n += 1) local = `${baseLocal}${n}`;
    const email = `${local}@${domain}`;
    emails.add(email);
    const hasPhone = rng.chance(0.7);
    const phoneType = rng.chance(0.6) ? 'mobile' : 'fixed_line';
    yield {
      external_id: `demo-p-${seed}-${i}`,
      first_name: first,
      last_name: last,
      title: makeTitle(seniority, department, pickN),
      seniority,
      department,
      country: city.country,
      region: city.region,
      city: city.city,
      company_external_id: company.external_id,
      email,
      phone: hasPhone ? makePhone(rng, city, phoneType) : null,
      phone_type: hasPhone ? phoneType : null,
      linkedin_url: `https://www.linkedin.com/in/${slug(first)}-${slug(last)}-${(i + seed * 7919).toString(36)}`,
      mailbox_exists: !rng.chance(0.08),
    };
  }
}

/** The mailboxes the mail world must know so the directory's addresses verify as they should. */
export function directoryCorpus(people: Iterable<TGeneratedPerson>): TCorpusEntry[] {
  const catchAll = new Set(PEOPLE_DOMAINS.filter((d) => d.scenario === 'catch_all').map((d) => d.domain));
  const out: TCorpusEntry[] = [];
  for (const p of people) {
    if (!p.email || !p.mailbox_exists) continue;
    const domain = p.email.split('@')[1]!;
    out.push({
      email: p.email,
      expected: catchAll.has(domain) ? { status: 'catch_all', reason: 'accept_all' } : { status: 'valid', reason: 'valid_mailbox' },
      tags: ['person', 'directory'],
    });
  }
  return out;
}

/** The demo directory's sizes and seed (`npm start` seeds it; the demo mail world knows its mailboxes). */
export const DEMO_DIRECTORY = { companies: 1_500, people: 20_000, seed: 2026 } as const;

/** The demo directory's mailboxes, for the demo mail world. */
export function demoDirectoryCorpus(): TCorpusEntry[] {
  const companies = generateCompanies(DEMO_DIRECTORY.companies, DEMO_DIRECTORY.seed);
  return directoryCorpus(generatePeople(DEMO_DIRECTORY.people, companies, DEMO_DIRECTORY.seed));
}
