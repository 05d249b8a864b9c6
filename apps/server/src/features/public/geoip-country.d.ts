declare module 'geoip-country' {
  /** The country of an IPv4 or IPv6 address from the bundled GeoLite2 country data; null when unknown. */
  export function lookup(ip: string): { country: string } | null;
}
