import pino, { type DestinationStream, type Logger } from "pino";
import { ConfigError, type LogSettings } from "../config.ts";

/**
 * Fields blanked in any line, whoever logs them: the request log keeps only safe fields in the first
 * place (server/http/request-log.ts); this is the net under a caller that passes a whole object.
 * docs/decisions/0040: no password, key, session, cookie, Authorization header or e-mail in a log.
 */
const REDACTED_PATHS = [
  "password",
  "currentPassword",
  "newPassword",
  "email",
  "to",
  "cookie",
  "authorization",
  "sessionId",
  "privateKey",
  "token",
  "headers",
  "body",
].flatMap((field) => [field, `*.${field}`]);

/**
 * JSON lines to stdout, written asynchronously: a write waits for none of its own, and lines logged
 * while one is under way go out together in the next, where a synchronous write made one system call
 * per line (4 % of a catalog page's CPU with one request line each: docs/decisions/0078). pino writes
 * what is left when the process exits; a process killed outright loses the lines of its last write.
 */
const jsonLines = pino.destination({ dest: 1, sync: false });

/** A destination that can be swapped after the root logger was made: the modules hold that logger from their import on. */
class SwitchableDestination implements DestinationStream {
  target: DestinationStream = jsonLines;

  write(line: string): void {
    this.target.write(line);
  }
}

const stdout = new SwitchableDestination();

/**
 * An error's type, message, code and stack only: a database error's other fields quote the row it
 * refused (PostgreSQL's detail: "Key (email)=(ana@example.test) already exists").
 */
function errorFields(error: unknown) {
  if (!(error instanceof Error)) return { message: String(error) };
  return { type: error.name, message: error.message, code: (error as NodeJS.ErrnoException).code, stack: error.stack };
}

/** A logger with Plume's redaction and time format, writing JSON lines to `destination`. */
export function createLogger(level: LogSettings["level"], destination: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: errorFields },
    },
    destination,
  );
}

/** The server's one logger; `configureLogger` sets its level and format once the settings are read. */
export const logger: Logger = createLogger("info", stdout);

/**
 * Pretty lines for a person at a terminal in development, JSON lines (one object per line) for a log
 * collector otherwise; LOG_FORMAT decides when set. pino-pretty is a development dependency, loaded
 * only when asked for: a production install has no need of it.
 */
export async function configureLogger(settings: LogSettings, isProduction: boolean): Promise<void> {
  logger.level = settings.level;
  const format = settings.format ?? (!isProduction && process.stdout.isTTY ? "pretty" : "json");
  // `npm start` configures before it builds the client, and startServer again: one pretty stream is enough.
  if (format === "json" || stdout.target !== jsonLines) return;
  try {
    const { default: pretty } = await import("pino-pretty");
    stdout.target = pretty({ sync: true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname" });
  } catch {
    throw new ConfigError("Invalid setting LOG_FORMAT: pretty needs the pino-pretty package, which a production install (npm ci --omit=dev) leaves out");
  }
}
