import { PROSPECT_DEPARTMENTS, PROSPECT_REVENUE_RANGES, PROSPECT_SENIORITIES, PROSPECT_SIZE_RANGES, type TDepartment, type TSeniority } from '@verilead/contracts';

/**
 * The fixed tables of the prospect directory: real cities (with their real area codes), NAICS 2017 industries,
 * seniority levels, departments and their titles, company size and revenue bands, technologies.
 * The generator draws from them; the search offers them as filter options.
 */

export type TCity = { city: string; region: string; country: string; countryName: string; areaPrefix: string; weight: number; locale: string; tld: string };

/** Real cities; `areaPrefix` is a real fixed-line prefix there (E.164 digits after +), weight ≈ √population. */
export const CITIES: readonly TCity[] = [
  { city: 'New York', region: 'New York', country: 'US', countryName: 'United States', areaPrefix: '1212', weight: 92, locale: 'en_US', tld: 'com' },
  { city: 'San Francisco', region: 'California', country: 'US', countryName: 'United States', areaPrefix: '1415', weight: 29, locale: 'en_US', tld: 'com' },
  { city: 'Austin', region: 'Texas', country: 'US', countryName: 'United States', areaPrefix: '1512', weight: 31, locale: 'en_US', tld: 'com' },
  { city: 'Chicago', region: 'Illinois', country: 'US', countryName: 'United States', areaPrefix: '1312', weight: 52, locale: 'en_US', tld: 'com' },
  { city: 'Boston', region: 'Massachusetts', country: 'US', countryName: 'United States', areaPrefix: '1617', weight: 26, locale: 'en_US', tld: 'com' },
  { city: 'Seattle', region: 'Washington', country: 'US', countryName: 'United States', areaPrefix: '1206', weight: 27, locale: 'en_US', tld: 'com' },
  { city: 'Toronto', region: 'Ontario', country: 'CA', countryName: 'Canada', areaPrefix: '1416', weight: 53, locale: 'en_CA', tld: 'ca' },
  { city: 'Vancouver', region: 'British Columbia', country: 'CA', countryName: 'Canada', areaPrefix: '1604', weight: 26, locale: 'en_CA', tld: 'ca' },
  { city: 'London', region: 'England', country: 'GB', countryName: 'United Kingdom', areaPrefix: '4420794', weight: 94, locale: 'en_GB', tld: 'co.uk' },
  { city: 'Manchester', region: 'England', country: 'GB', countryName: 'United Kingdom', areaPrefix: '44161', weight: 23, locale: 'en_GB', tld: 'co.uk' },
  { city: 'Edinburgh', region: 'Scotland', country: 'GB', countryName: 'United Kingdom', areaPrefix: '44131', weight: 23, locale: 'en_GB', tld: 'co.uk' },
  { city: 'Berlin', region: 'Berlin', country: 'DE', countryName: 'Germany', areaPrefix: '4930', weight: 61, locale: 'de', tld: 'de' },
  { city: 'Munich', region: 'Bavaria', country: 'DE', countryName: 'Germany', areaPrefix: '4989', weight: 39, locale: 'de', tld: 'de' },
  { city: 'Hamburg', region: 'Hamburg', country: 'DE', countryName: 'Germany', areaPrefix: '4940', weight: 43, locale: 'de', tld: 'de' },
  { city: 'Paris', region: 'Île-de-France', country: 'FR', countryName: 'France', areaPrefix: '331', weight: 46, locale: 'fr', tld: 'fr' },
  { city: 'Lyon', region: 'Auvergne-Rhône-Alpes', country: 'FR', countryName: 'France', areaPrefix: '33472', weight: 23, locale: 'fr', tld: 'fr' },
  { city: 'Madrid', region: 'Community of Madrid', country: 'ES', countryName: 'Spain', areaPrefix: '3491', weight: 57, locale: 'es', tld: 'es' },
  { city: 'Barcelona', region: 'Catalonia', country: 'ES', countryName: 'Spain', areaPrefix: '3493', weight: 40, locale: 'es', tld: 'es' },
  { city: 'Amsterdam', region: 'North Holland', country: 'NL', countryName: 'Netherlands', areaPrefix: '3120', weight: 30, locale: 'nl', tld: 'nl' },
  { city: 'Sydney', region: 'New South Wales', country: 'AU', countryName: 'Australia', areaPrefix: '612', weight: 72, locale: 'en_AU', tld: 'com.au' },
  { city: 'Melbourne', region: 'Victoria', country: 'AU', countryName: 'Australia', areaPrefix: '613', weight: 70, locale: 'en_AU', tld: 'com.au' },
  { city: 'Bengaluru', region: 'Karnataka', country: 'IN', countryName: 'India', areaPrefix: '918022', weight: 92, locale: 'en_IN', tld: 'in' },
];

/** NAICS 2017 six-digit industries (real codes) with a short label. */
export const INDUSTRIES: readonly { code: string; label: string }[] = [
  { code: '511210', label: 'Software Publishers' },
  { code: '541511', label: 'Custom Computer Programming Services' },
  { code: '518210', label: 'Data Processing, Hosting, and Related Services' },
  { code: '541611', label: 'Administrative Management Consulting Services' },
  { code: '541810', label: 'Advertising Agencies' },
  { code: '522110', label: 'Commercial Banking' },
  { code: '524114', label: 'Direct Health and Medical Insurance Carriers' },
  { code: '621111', label: 'Offices of Physicians' },
  { code: '325412', label: 'Pharmaceutical Preparation Manufacturing' },
  { code: '334413', label: 'Semiconductor and Related Device Manufacturing' },
  { code: '336111', label: 'Automobile Manufacturing' },
  { code: '454110', label: 'Electronic Shopping and Mail-Order Houses' },
  { code: '611310', label: 'Colleges, Universities, and Professional Schools' },
  { code: '531210', label: 'Offices of Real Estate Agents and Brokers' },
  { code: '484121', label: 'General Freight Trucking, Long-Distance' },
  { code: '722511', label: 'Full-Service Restaurants' },
  { code: '517311', label: 'Wired Telecommunications Carriers' },
  { code: '541110', label: 'Offices of Lawyers' },
];

export const SENIORITIES = PROSPECT_SENIORITIES;
export const DEPARTMENTS = PROSPECT_DEPARTMENTS;
export type { TSeniority, TDepartment };

/** Per department: its name in titles, the chief's title, individual-contributor titles. */
export const DEPARTMENT_TITLES: Record<TDepartment, { noun: string; chief: string; ic: readonly string[] }> = {
  engineering: { noun: 'Engineering', chief: 'Chief Technology Officer', ic: ['Software Engineer', 'Backend Engineer', 'Frontend Engineer', 'DevOps Engineer', 'Site Reliability Engineer'] },
  sales: { noun: 'Sales', chief: 'Chief Revenue Officer', ic: ['Account Executive', 'Sales Development Representative', 'Business Development Representative', 'Account Manager'] },
  marketing: { noun: 'Marketing', chief: 'Chief Marketing Officer', ic: ['Marketing Specialist', 'Content Marketing Manager', 'Growth Marketer', 'SEO Specialist'] },
  finance: { noun: 'Finance', chief: 'Chief Financial Officer', ic: ['Financial Analyst', 'Accountant', 'Controller', 'Payroll Specialist'] },
  human_resources: { noun: 'People', chief: 'Chief People Officer', ic: ['Recruiter', 'HR Business Partner', 'Talent Acquisition Specialist'] },
  operations: { noun: 'Operations', chief: 'Chief Operating Officer', ic: ['Operations Analyst', 'Project Manager', 'Supply Chain Analyst'] },
  product: { noun: 'Product', chief: 'Chief Product Officer', ic: ['Product Manager', 'Product Owner', 'Technical Product Manager'] },
  customer_success: { noun: 'Customer Success', chief: 'Chief Customer Officer', ic: ['Customer Success Manager', 'Support Engineer', 'Customer Support Specialist'] },
  legal: { noun: 'Legal', chief: 'General Counsel', ic: ['Corporate Counsel', 'Paralegal', 'Compliance Analyst'] },
  information_technology: { noun: 'IT', chief: 'Chief Information Officer', ic: ['Systems Administrator', 'IT Support Specialist', 'Network Engineer', 'Security Engineer'] },
  design: { noun: 'Design', chief: 'Chief Design Officer', ic: ['Product Designer', 'UX Designer', 'UI Designer', 'UX Researcher'] },
  data: { noun: 'Data', chief: 'Chief Data Officer', ic: ['Data Scientist', 'Data Engineer', 'Data Analyst', 'Machine Learning Engineer'] },
};

/** A title for a seniority in a department ("VP of Sales", "Senior Data Engineer", "Chief Financial Officer"). */
export function makeTitle(seniority: TSeniority, department: TDepartment, pick: (n: number) => number): string {
  const d = DEPARTMENT_TITLES[department];
  const ic = d.ic[pick(d.ic.length)]!;
  switch (seniority) {
    case 'owner':
      return 'Owner';
    case 'founder':
      return pick(2) === 0 ? 'Founder & CEO' : 'Co-Founder';
    case 'c_suite':
      return pick(4) === 0 ? 'Chief Executive Officer' : d.chief;
    case 'partner':
      return `Partner, ${d.noun}`;
    case 'vp':
      return `VP of ${d.noun}`;
    case 'head':
      return `Head of ${d.noun}`;
    case 'director':
      return `Director of ${d.noun}`;
    case 'manager':
      return `${d.noun} Manager`;
    case 'senior':
      return `Senior ${ic}`;
    case 'entry':
      return ic;
    case 'intern':
      return `${ic} Intern`;
  }
}

/** Words that mean the same in titles: "similar titles" widens a title filter with them. */
export const TITLE_SYNONYMS: readonly (readonly string[])[] = [
  ['cto', 'chief technology officer', 'vp of engineering', 'head of engineering'],
  ['ceo', 'chief executive officer', 'founder & ceo', 'co-founder'],
  ['cfo', 'chief financial officer', 'vp of finance', 'head of finance'],
  ['cmo', 'chief marketing officer', 'vp of marketing', 'head of marketing'],
  ['software engineer', 'developer', 'backend engineer', 'frontend engineer', 'programmer'],
  ['account executive', 'sales representative', 'account manager', 'business development representative'],
  ['recruiter', 'talent acquisition specialist', 'hr business partner'],
  ['product manager', 'product owner', 'technical product manager'],
  ['data scientist', 'machine learning engineer', 'data analyst'],
  ['designer', 'product designer', 'ux designer', 'ui designer'],
];

export const SIZE_RANGES = PROSPECT_SIZE_RANGES;
export const REVENUE_RANGES = PROSPECT_REVENUE_RANGES;

/** Employee counts per size band (lower, upper) and a typical revenue per employee (USD). */
export const SIZE_BANDS: readonly { range: (typeof SIZE_RANGES)[number]; min: number; max: number }[] = [
  { range: '1-10', min: 1, max: 10 },
  { range: '11-50', min: 11, max: 50 },
  { range: '51-200', min: 51, max: 200 },
  { range: '201-500', min: 201, max: 500 },
  { range: '501-1000', min: 501, max: 1000 },
  { range: '1001-5000', min: 1001, max: 5000 },
  { range: '5001-10000', min: 5001, max: 10000 },
  { range: '10001+', min: 10001, max: 60000 },
];

export function revenueRangeOf(usd: number): (typeof REVENUE_RANGES)[number] {
  if (usd < 1e6) return '<1M';
  if (usd < 1e7) return '1M-10M';
  if (usd < 5e7) return '10M-50M';
  if (usd < 1e8) return '50M-100M';
  if (usd < 5e8) return '100M-500M';
  if (usd < 1e9) return '500M-1B';
  return '1B+';
}

export function sizeRangeOf(employees: number): (typeof SIZE_RANGES)[number] {
  return (SIZE_BANDS.find((b) => employees <= b.max) ?? SIZE_BANDS[SIZE_BANDS.length - 1]!).range;
}

export const TECHNOLOGIES = [
  'Salesforce', 'HubSpot', 'Google Analytics', 'AWS', 'Microsoft Azure', 'Google Cloud', 'React', 'Angular', 'Vue.js',
  'Shopify', 'WordPress', 'Stripe', 'Zendesk', 'Intercom', 'Slack', 'Microsoft 365', 'Google Workspace', 'Marketo',
  'Segment', 'Snowflake', 'Kubernetes', 'Docker', 'PostgreSQL', 'MongoDB', 'Cloudflare', 'Okta', 'Jira', 'GitHub',
  'Datadog', 'Twilio', 'Mailchimp',
] as const;

/** Local parts of role (team) mailboxes: the "non-role only" enrich option leaves them out. */
export const ROLE_LOCAL_PARTS = new Set(['info', 'sales', 'support', 'contact', 'admin', 'office', 'hello', 'team', 'hr', 'jobs', 'billing', 'marketing']);

/** Free mail providers: addresses there are personal, not business. */
export const PERSONAL_MAIL_DOMAINS = new Set(['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'icloud.com', 'aol.com', 'gmx.de', 'web.de']);
