// A TypeScript child of the cage, for server/system/child-bundle.test.ts: it imports our TypeScript and a
// package by name, as the real children do, and answers what Node was started with.
import { z } from "zod";
import { serveCagedJob } from "../../server/system/caged-job-child.mjs";
import { isSingleLineText } from "../../shared/typed-text.ts";

serveCagedJob<{ text: string }, { singleLine: boolean; length: number; execArgv: string[] }>(async ({ text }) => ({
  singleLine: isSingleLineText(text),
  length: z.string().parse(text).length,
  execArgv: process.execArgv,
}));
