import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { levels, type Bindings, type ChildLoggerOptions, type LevelWithSilent, type Logger } from 'pino';

type LogArgs = Parameters<FastifyBaseLogger['info']>;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, bound to its request id like the child Fastify would make, but made only when a
 * line is actually written. pino builds a child by serialising and redacting its bindings, which costs
 * more than the whole handling of a cheap request such as the price; most requests write nothing at
 * the configured level, and every line that is written still carries the request id.
 */
class RequestLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
  ) {}

  /** The child logger itself, made on first use. */
  private made(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings));
  }

  private write(level: Level, args: LogArgs): void {
    const logger = this.#made ?? (this.parent.isLevelEnabled(level) ? this.made() : undefined);
    logger?.[level](...args);
  }

  get level(): LevelWithSilent | (string & {}) {
    return this.#made?.level ?? this.parent.level;
  }

  set level(level: LevelWithSilent | (string & {})) {
    this.made().level = level;
  }

  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }

  error(...args: LogArgs): void {
    this.write('error', args);
  }

  warn(...args: LogArgs): void {
    this.write('warn', args);
  }

  info(...args: LogArgs): void {
    this.write('info', args);
  }

  debug(...args: LogArgs): void {
    this.write('debug', args);
  }

  trace(...args: LogArgs): void {
    this.write('trace', args);
  }

  silent(): void {
    // Writes nothing, like pino's.
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made().child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: every request gets a `RequestLogger`. Routes with a log level or
 * serializers of their own (health and metrics probes) get pino's child at once, as Fastify would make it.
 */
export const requestLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => {
  if (options.level !== undefined || options.serializers !== undefined || options.redact !== undefined) {
    return logger.child(bindings, options);
  }
  return new RequestLogger(logger as unknown as Logger, bindings);
};

const INFO = levels.values.info!;
const ERROR = levels.values.error!;

/** Whether a logger at its current level writes a line of level `value` (pino's numbers). */
function writesAt(logger: FastifyBaseLogger, value: number): boolean {
  return (levels.values[logger.level] ?? Infinity) <= value;
}

/**
 * Fastify's own request lines ('incoming request', 'request completed'), asked for only when the
 * request's logger writes their level: Fastify builds each line's fields, and reads the clock for the
 * response time, before the logger looks at its level, on every request, whatever the level.
 */
export class LevelAwareLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (writesAt(request.log, INFO)) super.incomingRequest(request, reply);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (writesAt(reply.log, error ? ERROR : INFO)) super.requestCompleted(error, request, reply);
  }
}
