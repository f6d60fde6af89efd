export declare const getPluginLog: (name: string) => import("@dot/log").DotLog;
export declare const log: import("@dot/log").DotLog;
