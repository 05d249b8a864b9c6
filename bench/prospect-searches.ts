import type { TProspectFilters } from '@verilead/contracts';

/** Twenty searches a sales team would run: two to four filters, facets each time. */
export const SEARCHES: TProspectFilters[] = [
  { countries: ['US'], seniorities: ['vp', 'director'], departments: ['sales'] },
  { job_titles: ['CTO'], similar_titles: true },
  { countries: ['DE'], size_ranges: ['51-200', '201-500'] },
  { technologies: ['Salesforce'], departments: ['marketing'] },
  { industries: ['Software Publishers'], seniorities: ['c_suite', 'founder'] },
  { cities: ['London'], departments: ['engineering'], seniorities: ['senior'] },
  { job_titles: ['Account Executive'], countries: ['US', 'CA'] },
  { revenue_ranges: ['10M-50M', '50M-100M'], departments: ['finance'] },
  { keywords: 'data', countries: ['GB'] },
  { founded_year_min: 2015, technologies: ['AWS', 'Kubernetes'] },
  { company_names: ['Group'], seniorities: ['manager'] },
  { departments: ['human_resources'], size_ranges: ['1001-5000', '5001-10000', '10001+'] },
  { job_titles: ['Product Manager'], similar_titles: true, countries: ['US'] },
  { seniorities: ['head'], industries: ['Commercial Banking', 'Offices of Lawyers'] },
  { regions: ['California'], departments: ['engineering', 'data'] },
  { technologies: ['HubSpot'], size_ranges: ['11-50'] },
  { countries: ['FR', 'ES'], seniorities: ['director'] },
  { job_titles: ['Recruiter'], similar_titles: true },
  { keywords: 'engineer', countries: ['IN'], seniorities: ['entry'] },
  { departments: ['customer_success'], revenue_ranges: ['1B+'] },
];
