/**
 * How a feature declares its calls (Actual's handler maps): each feature module in this folder
 * exports one map of `call name → def<Output>()(inputSchema)`, contract.ts joins the maps, and
 * the feature's handler file in src/core/station/features is typed `FeatureHandlers<typeof map>`,
 * so a missing or misspelt handler is a compile error.
 */
import { z } from 'zod';

/** A call: its input schema, and its output type carried as a phantom. */
export interface CallDef<I extends z.ZodType, O> {
  input: I;
  /** Type-only; never read at runtime. */
  output?: O;
}

/** `def<OutputView>()(inputSchema)`: the output is a type, the input a schema checked at the host. */
export const def =
  <O>() =>
  <I extends z.ZodType>(input: I): CallDef<I, O> => ({ input });

export type CallMap = Record<string, CallDef<z.ZodType, unknown>>;

/** Exactly one handler per call of the map, taking the parsed input, resolving to the output. */
export type FeatureHandlers<M extends CallMap> = {
  [K in keyof M]: (input: z.output<M[K]['input']>) => Promise<NonNullable<M[K]['output']>>;
};

/** Schema pieces most calls share. */
export const none = z.object({}).strict();
export const id = z.string().min(1).max(200);
export const text = (max = 500) => z.string().max(max);
