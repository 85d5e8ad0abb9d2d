import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

#if os(macOS) || os(Linux) || os(Windows)
    /// Scenarios run in worker processes, one at a time each: what the capture installs is
    /// process-wide, so parallel scenarios need parallel processes. Every worker is the same
    /// program started with ``WorkerLaunch/arguments``; it answers through ``WorkerPool/serve(driver:followUp:)``,
    /// and each request hands it the file and the whole ``RunPlan`` to run it under.
    ///
    /// A worker that dies mid-scenario (a crash in the stack under test) costs that scenario only:
    /// it is reported as an error naming the signal or exit status, and a fresh worker takes over.
    /// So does a worker whose scenario stops making progress (the stack blocked the scenario's
    /// thread for real: a deadlock, a lock, an endless loop): after ``WorkerLaunch/stallLimit`` of real time
    /// without a job run, it is stopped. Scenarios are handed out to whichever worker is free.
    package final class WorkerPool: @unchecked Sendable {
        private let launch: WorkerLaunch
        private let lock = NSLock()
        private var idle: [Worker] = []

        /// Creates a pool; workers start on first use.
        package init(launch: WorkerLaunch) { self.launch = launch }

        deinit { for worker in idle { worker.stop() } }

        /// What a worker gave back.
        package enum Answer: Sendable {
            /// It ran the scenario, or found its file unloadable.
            case finished(SuiteRunner.Executed)
            /// It could not be started or died before answering.
            case died(String)
        }

        /// Runs one scenario file in a worker, which reads it itself.
        func run(_ file: DiscoveredScenario, plan: RunPlan) async -> Answer {
            await run(WorkerRequest(file: file.path, id: file.id, plan: plan))
        }

        /// Runs a scenario's text in a worker, loaded as if read from `file`, under `plan`.
        package func run(text: String, as file: DiscoveredScenario, plan: RunPlan) async -> Answer {
            await run(WorkerRequest(file: file.path, id: file.id, plan: plan, text: text))
        }

        private func run(_ request: WorkerRequest) async -> Answer {
            let worker: Worker
            do {
                worker = try lock.withLock { idle.popLast() } ?? Worker(launch: launch)
            } catch {
                return .died("could not start a worker process: \(error)")
            }
            let stallLimit = launch.stallLimit
            // Reading a pipe blocks: do it off the cooperative pool.
            let answer = await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: worker.ask(request, stallLimit: stallLimit)) }
            }
            switch answer {
            case .finished:
                lock.withLock { idle.append(worker) }
            case .died:
                worker.stop()
            }
            return answer
        }

        /// Serves requests on standard input until it closes: the body of a worker process.
        /// Each request loads its file with the driver's loader and runs it under its plan.
        package static func serve(driver: any ScenarioDriver, followUp: (any FailureFollowUp)? = nil) async {
            ScenarioProcess.claimWholeProcess()
            let loader = ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys)
            let encoder = JSONEncoder()
            let replies = Replies(privateStandardOutput())
            replies.beatWhileScenariosProgress()
            while let line = readLine(strippingNewline: true) {
                guard let request = try? JSONDecoder().decode(WorkerRequest.self, from: Data(line.utf8)) else { continue }
                let file = DiscoveredScenario(path: request.file, id: request.id)
                var runner = ScenarioRunner(driver: driver, plan: request.plan)
                runner.followUp = followUp
                let run = { (scenario: Scenario) in await runner.run(scenario) }
                let executed =
                    if let text = request.text {
                        await SuiteRunner.execute(file, loaded: loader.load(data: Data(text.utf8), file: file.path, id: file.id), run: run)
                    } else {
                        await SuiteRunner.execute(file, loader: loader, run: run)
                    }
                guard var data = try? encoder.encode(WorkerReply(executed)) else { continue }
                data.append(UInt8(ascii: "\n"))
                replies.write(data)
            }
        }

        /// A worker's replies, and between them an empty line every second its scenario made
        /// progress: the pool stops a worker that goes quiet for its stall limit.
        private final class Replies: @unchecked Sendable {
            private let output: FileHandle
            private let lock = NSLock()

            init(_ output: FileHandle) { self.output = output }

            func write(_ data: Data) { lock.withLock { output.write(data) } }

            func beatWhileScenariosProgress() {
                @Sendable func beat(quiet: Duration, now: ScenarioHost.Progress) -> Bool {
                    if now.scheduler != nil, quiet == .zero { write(Data([UInt8(ascii: "\n")])) }
                    return true
                }
                StallWatch.follow(every: .seconds(1), progress: { ScenarioHost.shared.progress }, beat)
            }
        }

        /// Where replies go: standard output as the worker found it. The stack under test may
        /// print, and a line it prints must not be taken for a reply, so what it prints from
        /// now on goes to standard error.
        private static func privateStandardOutput() -> FileHandle {
            #if canImport(Glibc) || canImport(Darwin)
                fflush(nil)  // every stream: naming `stdout` is not concurrency-safe
                let original = dup(STDOUT_FILENO)
                guard original >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else { return .standardOutput }
                return FileHandle(fileDescriptor: original, closeOnDealloc: true)
            #else
                return .standardOutput
            #endif
        }
    }

    /// What a worker writes back: one line of JSON per request.
    private struct WorkerReply: Codable {
        var result: ScenarioResult
        var loadFailure: LoadFailure?

        init(_ executed: SuiteRunner.Executed) {
            result = executed.result
            loadFailure = executed.loadFailure
        }
    }

    /// One worker process and its pipes.
    private final class Worker: @unchecked Sendable {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private var buffer = Data()

        init(launch: WorkerLaunch) throws {
            process.executableURL = launch.executable
            process.arguments = launch.arguments
            // Dictionaries walked in one order in every worker (see `DeterministicHashing`).
            var environment = ProcessInfo.processInfo.environment
            environment[DeterministicHashing.variable] = environment[DeterministicHashing.variable] ?? "1"
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        /// Sends one request and reads one line back, skipping the empty lines that say the
        /// scenario progresses; a closed pipe means the worker died, and a worker silent for
        /// `stallLimit` is stopped.
        func ask(_ request: WorkerRequest, stallLimit: Duration) -> WorkerPool.Answer {
            guard var line = try? JSONEncoder().encode(request) else { return .died("could not encode the request") }
            line.append(UInt8(ascii: "\n"))
            do { try input.fileHandleForWriting.write(contentsOf: line) } catch { return .died(death()) }
            var pending = buffer
            buffer = Data()
            var scanned = 0
            while true {
                if let end = Self.lineEnd(in: pending, from: scanned) {
                    if end == pending.startIndex {
                        // A heartbeat.
                        pending = Data(pending.dropFirst())
                        scanned = 0
                        continue
                    }
                    buffer = Data(pending[(end + 1)...])
                    guard let reply = try? JSONDecoder().decode(WorkerReply.self, from: pending[..<end]) else {
                        return .died("the worker process answered something that is not a result")
                    }
                    return .finished(SuiteRunner.Executed(result: reply.result, loadFailure: reply.loadFailure))
                }
                scanned = pending.count
                guard hasOutput(within: stallLimit) else {
                    killWorker()
                    return .died(
                        "the scenario made no progress for \(stallLimit) of real time, so its worker process was stopped: \(StallWatch.cause)"
                    )
                }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return .died(death()) }
                pending.append(chunk)
            }
        }

        /// The index of the first line feed at or after `offset` (counted from the start).
        /// `memchr` over the bytes: going through `Data`'s collection interface checked exclusive
        /// access on every byte, which cost the parent more than decoding the reply.
        private static func lineEnd(in data: Data, from offset: Int) -> Data.Index? {
            data.withUnsafeBytes { bytes in
                guard offset < bytes.count, let base = bytes.baseAddress,
                    let hit = memchr(base + offset, Int32(UInt8(ascii: "\n")), bytes.count - offset)
                else { return nil }
                return data.startIndex + (UnsafeRawPointer(hit) - base)
            }
        }

        /// Stops the worker for certain: a stack stuck for real may not end on a polite signal.
        /// Not waited for: Foundation waits for the pipes too, which a child of the stack's may hold.
        private func killWorker() {
            #if canImport(Glibc) || canImport(Darwin)
                _ = kill(process.processIdentifier, SIGKILL)
            #else
                process.terminate()
            #endif
        }

        /// Whether the worker writes something within `limit` (a heartbeat at least).
        private func hasOutput(within limit: Duration) -> Bool {
            #if canImport(Glibc) || canImport(Darwin)
                var descriptor = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(clamping: limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000)
                while true {
                    let ready = poll(&descriptor, 1, milliseconds)
                    if ready >= 0 || errno != EINTR { return ready != 0 }
                }
            #else
                return true
            #endif
        }

        private func death() -> String {
            process.waitUntilExit()
            let how =
                process.terminationReason == .uncaughtSignal
                ? "signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
            return "the worker process running this scenario died (\(how)); the stack under test crashed?"
        }

        func stop() {
            try? input.fileHandleForWriting.close()
        }
    }
#endif
