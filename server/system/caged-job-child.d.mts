/** Types of caged-job-child.mjs, for the TypeScript children. */
export declare function failCagedJob(error: unknown): void;
export declare function serveCagedJob<Job, Answer>(work: (job: Job) => Promise<Answer>): void;
