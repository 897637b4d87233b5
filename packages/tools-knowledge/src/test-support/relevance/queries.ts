/**
 * The labelled queries of the relevance set: each names the one right file of the corpus in
 * `corpus/` and the section(s) that answer it. Written as a user would ask — mostly in their own
 * words, not the document's — before any ranking was measured on them.
 */

/** One labelled query. */
export interface RelevanceQuery {
  /** What the user types. */
  query: string;
  /** The one right file, relative to the corpus folder. */
  file: string;
  /** Headings of the sections that answer it (a chunk counts when its trail holds one). */
  headings: readonly string[];
}

/** The labelled queries (74: 66 English, 8 Chinese / Japanese / Korean). */
export const RELEVANCE_QUERIES: readonly RelevanceQuery[] = [
  {
    query: "how do I undo a rebase that went wrong",
    file: "git-rebase.md",
    headings: ["Resolving conflicts during a rebase"],
  },
  {
    query: "safely force push after rewriting commits",
    file: "git-rebase.md",
    headings: ["Pushing a rebased branch"],
  },
  {
    query: "combine several commits into one before merging",
    file: "git-rebase.md",
    headings: ["Interactive rebase"],
  },
  {
    query: "find which commit introduced a bug",
    file: "git-bisect.md",
    headings: ["Finding regressions with git bisect"],
  },
  {
    query: "script that marks commits good or bad automatically",
    file: "git-bisect.md",
    headings: ["Automating it with bisect run"],
  },
  {
    query: "containers cannot reach each other by name",
    file: "docker-networking.md",
    headings: ["User-defined bridge networks", "Troubleshooting connectivity"],
  },
  {
    query: "expose a container port only on localhost",
    file: "docker-networking.md",
    headings: ["Publishing ports"],
  },
  {
    query: "reduce the size of a docker image",
    file: "docker-images.md",
    headings: ["Building small Docker images", "Multi-stage builds", "镜像体积优化"],
  },
  {
    query: "why does npm install run again after every code change in the docker build",
    file: "docker-images.md",
    headings: ["Layer caching"],
  },
  {
    query: "pod keeps restarting because the health check calls the database",
    file: "kubernetes-probes.md",
    headings: ["Liveness probes"],
  },
  {
    query: "stop sending traffic to a pod while it warms up",
    file: "kubernetes-probes.md",
    headings: ["Readiness probes"],
  },
  {
    query: "container killed with exit code 137",
    file: "kubernetes-resources.md",
    headings: ["Limits"],
  },
  {
    query: "latency spikes caused by cpu throttling",
    file: "kubernetes-resources.md",
    headings: ["Limits", "Sizing in practice"],
  },
  {
    query: "index for searching inside jsonb and arrays",
    file: "postgres-indexes.md",
    headings: ["GIN indexes"],
  },
  {
    query: "add an index without locking the table",
    file: "postgres-indexes.md",
    headings: ["Building indexes without blocking writes"],
  },
  {
    query: "query plan shows a sequential scan on a big table",
    file: "postgres-indexes.md",
    headings: ["Reading EXPLAIN ANALYZE"],
  },
  {
    query: "table keeps growing after deleting rows",
    file: "postgres-vacuum.md",
    headings: ["Table bloat", "Why dead tuples exist"],
  },
  {
    query: "postgres stopped accepting writes because of transaction ids",
    file: "postgres-vacuum.md",
    headings: ["Transaction ID wraparound"],
  },
  {
    query: "which eviction policy should a cache use when memory is full",
    file: "redis-eviction.md",
    headings: ["Eviction policies"],
  },
  {
    query: "curl says unable to get local issuer certificate",
    file: "tls-certificates.md",
    headings: ["The certificate chain"],
  },
  {
    query: "renew a let's encrypt wildcard certificate automatically",
    file: "tls-certificates.md",
    headings: ["Automating renewal with ACME"],
  },
  {
    query: "warning remote host identification has changed",
    file: "ssh-keys.md",
    headings: ["Host keys and known_hosts"],
  },
  {
    query: "connect to a server through a jump host",
    file: "ssh-keys.md",
    headings: ["~/.ssh/config", "The SSH agent"],
  },
  {
    query: "browser keeps using the old javascript file after a deploy",
    file: "http-caching.md",
    headings: ["Caching static assets"],
  },
  {
    query: "how does revalidation with 304 not modified work",
    file: "http-caching.md",
    headings: ["Validators: ETag and Last-Modified"],
  },
  {
    query: "login flow for a single page app with a code verifier",
    file: "oauth2-flows.md",
    headings: ["Authorization code flow with PKCE"],
  },
  {
    query: "service to service authentication without a user",
    file: "oauth2-flows.md",
    headings: ["Client credentials flow"],
  },
  { query: "revoke a jwt before it expires", file: "jwt.md", headings: ["Expiry and revocation"] },
  {
    query: "rotating the keys that sign tokens",
    file: "jwt.md",
    headings: ["Signing keys and rotation"],
  },
  {
    query: "allow short bursts but limit the average request rate",
    file: "rate-limiting.md",
    headings: ["Token bucket"],
  },
  {
    query: "deep pages of results are slow with offset and limit",
    file: "rest-pagination.md",
    headings: ["Offset pagination", "Cursor pagination"],
  },
  {
    query: "websocket connection silently dropped when idle",
    file: "websockets.md",
    headings: ["Heartbeats with ping and pong"],
  },
  {
    query: "changed a dns record but users still see the old address",
    file: "dns-basics.md",
    headings: ["TTL and propagation"],
  },
  {
    query: "why are small downloads slow over long distance links",
    file: "tcp-congestion.md",
    headings: ["Slow start"],
  },
  {
    query: "pip fails with externally managed environment",
    file: "python-virtualenv.md",
    headings: ["Common problems"],
  },
  {
    query: "run several http requests at the same time in python",
    file: "python-asyncio.md",
    headings: ["Running things concurrently", "Limiting concurrency"],
  },
  {
    query: "why does a promise callback run before settimeout",
    file: "javascript-event-loop.md",
    headings: ["Tasks and microtasks"],
  },
  {
    query: "cannot borrow as mutable because it is also borrowed",
    file: "rust-ownership.md",
    headings: ["Common borrow checker errors", "Borrowing"],
  },
  {
    query: "stop goroutines when the request is cancelled",
    file: "go-concurrency.md",
    headings: ["Cancellation with context"],
  },
  {
    query: "long garbage collection pauses in a java service",
    file: "java-garbage-collection.md",
    headings: ["Diagnosing GC pauses", "ZGC and Shenandoah"],
  },
  {
    query: "responsive card layout without media queries",
    file: "css-grid.md",
    headings: ["Responsive columns without media queries"],
  },
  {
    query: "regex takes forever on some inputs",
    file: "regex-guide.md",
    headings: ["Catastrophic backtracking"],
  },
  {
    query: "two strings look identical but compare unequal",
    file: "unicode-normalization.md",
    headings: ["Why the same text compares unequal"],
  },
  {
    query: "run a job every weekday at night",
    file: "cron-systemd-timers.md",
    headings: ["Cron syntax", "systemd timers"],
  },
  {
    query: "what does the caret mean in package versions",
    file: "semantic-versioning.md",
    headings: ["Version ranges in npm"],
  },
  {
    query: "tests fail randomly in ci without code changes",
    file: "unit-testing.md",
    headings: ["Flaky tests"],
  },
  {
    query: "95th percentile latency query",
    file: "prometheus-monitoring.md",
    headings: ["Latency percentiles from histograms"],
  },
  {
    query: "restore the database to the moment before an accidental delete",
    file: "backups-restore.md",
    headings: ["Point-in-time recovery"],
  },
  {
    query: "0.1 plus 0.2 gives the wrong result",
    file: "floating-point.md",
    headings: ["Why 0.1 + 0.2 is not 0.3"],
  },
  {
    query: "scheduled job ran twice when the clocks changed",
    file: "timezones.md",
    headings: ["Daylight saving time"],
  },
  {
    query: "my script keeps going after a command fails",
    file: "shell-scripting.md",
    headings: ["Strict mode"],
  },
  { query: "undo a git reset --hard", file: "git-basics.md", headings: ["Undoing changes"] },
  {
    query: "web container starts before the database is ready",
    file: "docker-compose.md",
    headings: ["Startup order"],
  },
  {
    query: "load environment variables from a dotenv file in compose",
    file: "docker-compose.md",
    headings: ["Environment and secrets"],
  },
  {
    query: "roll back a bad kubernetes release",
    file: "kubernetes-deployments.md",
    headings: ["Rolling back"],
  },
  {
    query: "pods do not pick up a changed configmap",
    file: "kubernetes-deployments.md",
    headings: ["Configuration"],
  },
  {
    query: "standby server falls behind the primary",
    file: "postgres-replication.md",
    headings: ["Replication lag"],
  },
  {
    query: "failover without losing committed transactions",
    file: "postgres-replication.md",
    headings: ["Synchronous replication"],
  },
  { query: "which http methods are idempotent", file: "http-basics.md", headings: ["Methods"] },
  {
    query: "websocket behind nginx does not connect",
    file: "nginx-reverse-proxy.md",
    headings: ["Proxying WebSocket connections"],
  },
  {
    query: "server should finish requests in flight before exiting",
    file: "linux-processes.md",
    headings: ["Graceful shutdown", "Signals"],
  },
  {
    query: "zombie processes inside a container",
    file: "linux-processes.md",
    headings: ["Zombies and orphans"],
  },
  {
    query: "upload my library to pypi without a password",
    file: "python-packaging.md",
    headings: ["Uploading to PyPI"],
  },
  { query: "what is a canary release", file: "devops-glossary.md", headings: ["A–C"] },
  {
    query: "my app lost the files it wrote to its disk",
    file: "platform-faq.md",
    headings: ["Is my data backed up?"],
  },
  {
    query: "how long until my custom domain gets a certificate",
    file: "platform-faq.md",
    headings: ["How do I connect a custom domain?"],
  },
  { query: "消费者数量超过分区数量", file: "kafka-consumer-groups-zh.md", headings: ["消费者组"] },
  { query: "如何保证消息的顺序", file: "kafka-consumer-groups-zh.md", headings: ["主题与分区"] },
  { query: "镜像体积太大怎么办", file: "docker-images.md", headings: ["镜像体积优化"] },
  {
    query: "全角の英数字を半角にしたい",
    file: "unicode-normalization.md",
    headings: ["全角と半角"],
  },
  {
    query: "非正規化で読み込み性能を上げる",
    file: "database-normalization-ja.md",
    headings: ["非正規化が必要な場合"],
  },
  { query: "強制プッシュの注意点", file: "git-rebase.md", headings: ["ブランチ運用のルール"] },
  { query: "서버에 공개 키 등록", file: "ssh-keys.md", headings: ["SSH 키 생성과 등록"] },
  {
    query: "更新異常を防ぐ",
    file: "database-normalization-ja.md",
    headings: ["第二正規形と第三正規形"],
  },
];
