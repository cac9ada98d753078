// The scripted "model" shared by the loopback model-API mocks (Anthropic Messages, Gemini): a
// list of turns, each one or more tool calls built from the tool results the host sent back so
// far, then a final text answer. The mocks translate turns into their wire format and record
// what the host showed the model.

/** One scripted tool call: our tool's name and its arguments, built from earlier results. */
export interface ScriptedCall {
  /** Our tool name (`system_exec`, …); the mock finds the host's name for it in the request. */
  tool: string;
  /** The arguments, from the texts the model saw for every earlier call (in order). */
  args: (results: string[]) => Record<string, unknown>;
}

/** One model turn: a single call, or several calls the model asks for at once. */
export type ScriptedTurn = ScriptedCall | ScriptedCall[];

/** A tool result as the host sent it to the model. */
export interface SeenResult {
  /** The host's id for the call it answers. */
  callId: string;
  /** The text the model was given. */
  text: string;
  /** Whether the host flagged it as an error (where the wire format says so). */
  isError: boolean;
}

/** The final answer after the script: also what every request that is not the session gets. */
export const FINAL_TEXT = "done";

/** What the script says for a request that already carries `resultCount` tool results. */
export type ScriptStep =
  | { kind: "calls"; calls: { name: string; args: Record<string, unknown>; id: string }[] }
  | { kind: "text"; text: string };

/**
 * The host's name for our tool `tool` among the tool names it offered the model: the exact name,
 * or the one ending in `_<tool>` (hosts prefix the server name: `mcp__system-command__`,
 * `mcp_system-command_`, `system-command_`).
 */
export function hostToolName(offered: string[], tool: string): string | undefined {
  return offered.find((name) => name === tool) ?? offered.find((name) => name.endsWith(`_${tool}`));
}

/** Turns flattened: the index of the first result each turn's calls answer. */
function turnStarts(turns: ScriptedCall[][]): number[] {
  const starts: number[] = [];
  let next = 0;
  for (const turn of turns) {
    starts.push(next);
    next += turn.length;
  }
  return starts;
}

/**
 * A script: given the tool names a request offers and the results it carries, the next step.
 * Script errors (missing tools, arguments that could not be built) end the turn with text and
 * are kept in `errors`, so a test can show them.
 */
export class Script {
  readonly errors: string[] = [];
  private readonly turns: ScriptedCall[][];
  private readonly starts: number[];
  private calls = 0;

  constructor(turns: ScriptedTurn[]) {
    this.turns = turns.map((turn) => (Array.isArray(turn) ? turn : [turn]));
    this.starts = turnStarts(this.turns);
  }

  /** The step for a session request that offered `offered` and carries `results`. */
  next(offered: string[], results: SeenResult[]): ScriptStep {
    const index = this.starts.indexOf(results.length);
    const turn = index === -1 ? undefined : this.turns[index];
    if (turn === undefined) return { kind: "text", text: FINAL_TEXT };
    const texts = results.map((result) => result.text);
    const calls: { name: string; args: Record<string, unknown>; id: string }[] = [];
    for (const call of turn) {
      const name = hostToolName(offered, call.tool);
      if (name === undefined) {
        this.errors.push(`turn ${index}: ${call.tool} not among the offered tools ${offered}`);
        return { kind: "text", text: FINAL_TEXT };
      }
      try {
        calls.push({ name, args: call.args(texts), id: `call_${++this.calls}` });
      } catch (error) {
        this.errors.push(`turn ${index} (${call.tool}): ${String(error)}`);
        return { kind: "text", text: FINAL_TEXT };
      }
    }
    return { kind: "calls", calls };
  }
}

/** The JSON object in a result text (hosts may wrap it); throws when there is none. */
export function jsonIn(text: string): Record<string, any> {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start === -1 || end < start) throw new Error(`no JSON object in ${text.slice(0, 200)}`);
  return JSON.parse(text.slice(start, end + 1)) as Record<string, any>;
}
