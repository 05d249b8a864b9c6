/** Types of scripts/server-bundle.mjs for the TypeScript callers (benches). */
export declare const SERVER_BUNDLE: string;
export declare const SERVER_CHUNKS_DIR: string;
export declare function bundleServer(): Promise<string>;
export declare const DEFAULT_SERVER_HEAP_MB: number;
export declare function serverNodeFlags(env?: Record<string, string | undefined>): string[];
