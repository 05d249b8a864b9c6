// The exposition parser the metrics tests read /metrics with (it ships no types).
declare module 'parse-prometheus-text-format' {
  export type TParsedSample = { labels?: Record<string, string>; value?: string; count?: string; sum?: string; buckets?: Record<string, string> };
  export type TParsedFamily = { name: string; help: string; type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'; metrics: TParsedSample[] };
  export default function parsePrometheusTextFormat(text: string): TParsedFamily[];
}
