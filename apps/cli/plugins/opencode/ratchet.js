// Ratchet for OpenCode (written by `ratchet init --harness opencode`; do not edit: re-run init).
// OpenCode has no command hooks, so this plugin calls `ratchet hook <event> --harness opencode`
// at the same points, sends OpenCode's own values as JSON on standard input, and acts on the
// one-line JSON answer. All decisions live in `ratchet hook`; this file only carries them.
//
//   tool.execute.before          pre-tool-use: a denied tool call throws, so the reason is the tool's result
//   tool.execute.after           post-tool-use: the call goes into the activity log; a plan-step warning is appended to the result
//   experimental.chat.system.transform   session-start: the task's state and next command, as system text
//   chat.message                 user-prompt-submit: the reasoning flow's directive, as system text for the turn
//   event session.idle           stop: while obligations are open the session is prompted again with the reason.
//                                Only a long-running OpenCode (the TUI, `opencode serve`) delivers it in time:
//                                `opencode run` exits at idle, and nothing can send the model back there.
//
// Where ratchet is found: RATCHET_CLI (the path of bin/ratchet.js or of a `ratchet` executable),
// else the project's node_modules/.bin/ratchet, else `ratchet` on PATH. Not found, or failing:
// a note on stderr and the action goes ahead (as `ratchet hook` itself fails open).
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { clearTimeout, setTimeout } from "node:timers"

const TIMEOUT_MS = 30_000

function command(directory) {
  const cli = process.env.RATCHET_CLI
  if (cli) return cli.endsWith(".js") ? ["node", [cli]] : [cli, []]
  const local = join(directory, "node_modules", ".bin", "ratchet")
  return existsSync(local) ? [local, []] : ["ratchet", []]
}

/** Run `ratchet hook <event> --harness opencode` with `payload`; the parsed answer, or {} when there is none. */
function ratchetHook(directory, event, payload) {
  const [file, pre] = command(directory)
  return new Promise((resolve) => {
    let out = ""
    let err = ""
    let child
    try {
      child = spawn(file, [...pre, "hook", event, "--harness", "opencode"], { cwd: directory, stdio: ["pipe", "pipe", "pipe"] })
    } catch (e) {
      console.error(`ratchet plugin: cannot run ${file} (${e}); ${event} not checked`)
      return resolve({})
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS)
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (err += d))
    child.on("error", (e) => {
      clearTimeout(timer)
      console.error(`ratchet plugin: cannot run ${file} (${e.message}); ${event} not checked`)
      resolve({})
    })
    child.on("close", () => {
      clearTimeout(timer)
      if (err.trim() !== "") console.error(err.trim())
      const line = out.trim()
      if (line === "") return resolve({})
      try {
        resolve(JSON.parse(line))
      } catch {
        console.error(`ratchet plugin: ${event} answered something that is not JSON; not acted on`)
        resolve({})
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify({ event, directory, ...payload }))
  })
}

const promptText = (parts) => (Array.isArray(parts) ? parts.filter((p) => p && p.type === "text" && !p.synthetic).map((p) => p.text).join("\n") : "")

export const RatchetPlugin = async ({ client, directory }) => {
  const sessionContext = new Map() // sessionID -> session-start context (once per session)
  const promptContext = new Map() // sessionID -> the current prompt's context
  const notes = new Map() // callID -> a plan-step warning for the tool's result
  const sentBack = new Set() // sessions the last idle prompted again
  const idleChecks = new Set() // sessions with a stop check in flight (session.status and session.idle both announce idle)

  return {
    "tool.execute.before": async (input, output) => {
      const answer = await ratchetHook(directory, "pre-tool-use", { tool: input.tool, sessionID: input.sessionID, callID: input.callID, args: output.args })
      if (answer.decision === "deny") throw new Error(answer.reason)
      if (typeof answer.additionalContext === "string") notes.set(input.callID, answer.additionalContext)
    },
    "tool.execute.after": async (input, output) => {
      await ratchetHook(directory, "post-tool-use", { tool: input.tool, sessionID: input.sessionID, callID: input.callID, args: input.args, output: output?.output })
      const note = notes.get(input.callID)
      if (note !== undefined && output && typeof output.output === "string") {
        notes.delete(input.callID)
        output.output = `${output.output}\n\n${note}`
      }
    },
    "experimental.chat.system.transform": async (input, output) => {
      const id = input.sessionID
      if (!id) return
      if (!sessionContext.has(id)) {
        const answer = await ratchetHook(directory, "session-start", { sessionID: id })
        sessionContext.set(id, typeof answer.additionalContext === "string" ? answer.additionalContext : "")
      }
      for (const text of [sessionContext.get(id), promptContext.get(id)]) if (text) output.system.push(text)
    },
    "chat.message": async (input, output) => {
      const prompt = promptText(output.parts)
      if (prompt === "" || sentBack.has(input.sessionID)) return
      const answer = await ratchetHook(directory, "user-prompt-submit", { sessionID: input.sessionID, prompt })
      promptContext.set(input.sessionID, typeof answer.additionalContext === "string" ? answer.additionalContext : "")
    },
    event: async ({ event }) => {
      const idle = event.type === "session.idle" || (event.type === "session.status" && event.properties?.status?.type === "idle")
      const id = event.properties?.sessionID
      if (!idle || !id || idleChecks.has(id)) return
      idleChecks.add(id)
      try {
        const answer = await ratchetHook(directory, "stop", { sessionID: id, stopHookActive: sentBack.has(id) })
        if (answer.decision !== "block") {
          sentBack.delete(id)
          return
        }
        sentBack.add(id)
        await client.session.promptAsync({ path: { id }, body: { parts: [{ type: "text", text: answer.reason }] } })
      } catch (e) {
        console.error(`ratchet plugin: could not send the session back (${e}); it may stop with obligations open`)
      } finally {
        idleChecks.delete(id)
      }
    },
  }
}
