export declare const serverNodeFlags: readonly string[];
export declare function missingServerNodeFlags(execArgv: readonly string[]): string[];
