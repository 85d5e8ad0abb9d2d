import Foundation

/// Scenarios run in worker processes, one at a time each: what the capture installs is
/// process-wide, so parallel scenarios need parallel processes. Every worker is the same
/// program started with ``WorkerLaunch/arguments``; it answers through ``WorkerPool/serve(driver:configuration:)``.
///
/// A worker that dies mid-scenario (a crash in the stack under test) costs that scenario only:
/// it is reported as an error naming the signal or exit status, and a fresh worker takes over.
public struct WorkerLaunch: Sendable {
    /// The program to start.
    public var executable: URL
    /// Its arguments, which must make it call ``WorkerPool/serve(driver:configuration:)``.
    public var arguments: [String]

    /// Describes how to start a worker.
    public init(executable: URL, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }
}

/// What a worker is asked to run: one line of JSON on its standard input.
struct WorkerRequest: Codable {
    var file: String
    var id: String
}

#if os(macOS) || os(Linux) || os(Windows)
    /// A set of worker processes; scenarios are handed out to whichever is free.
    public final class WorkerPool: @unchecked Sendable {
        private let launch: WorkerLaunch
        private let lock = NSLock()
        private var idle: [Worker] = []

        /// Creates a pool; workers start on first use.
        public init(launch: WorkerLaunch) { self.launch = launch }

        deinit { for worker in idle { worker.stop() } }

        /// Runs one scenario in a worker and returns its result.
        func run(_ scenario: Scenario) async -> ScenarioResult {
            let worker: Worker
            do {
                worker = try lock.withLock { idle.popLast() } ?? Worker(launch: launch)
            } catch {
                return Self.failed(scenario, "could not start a worker process: \(error)")
            }
            let request = WorkerRequest(file: scenario.file, id: scenario.id)
            // Reading a pipe blocks: do it off the cooperative pool.
            let answer = await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: worker.ask(request)) }
            }
            switch answer {
            case .result(let result):
                lock.withLock { idle.append(worker) }
                return result
            case .failed(let reason):
                worker.stop()
                return Self.failed(scenario, reason)
            }
        }

        private static func failed(_ scenario: Scenario, _ reason: String) -> ScenarioResult {
            ScenarioResult(
                id: scenario.id, name: scenario.name, file: scenario.file, tags: scenario.tags, status: .error,
                errorMessage: reason, errorLocation: scenario.location)
        }

        /// Serves requests on standard input until it closes: the body of a worker process.
        /// Each request loads its file with the driver's loader and runs it as `configuration` says.
        public static func serve(driver: any ScenarioDriver, configuration: SuiteRunner.Configuration) async {
            ScenarioProcess.claimWholeProcess()
            let loader = ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys)
            let encoder = JSONEncoder()
            while let line = readLine(strippingNewline: true) {
                guard let request = try? JSONDecoder().decode(WorkerRequest.self, from: Data(line.utf8)) else { continue }
                let result: ScenarioResult
                switch loader.load(contentsOf: request.file, id: request.id) {
                case .success(let scenario):
                    result = await SuiteRunner.execute(scenario, driver: driver, configuration: configuration)
                case .failure(let failure):
                    result = ScenarioResult(
                        id: request.id, name: request.id, file: request.file, status: .error, errorMessage: failure.description)
                }
                guard var data = try? encoder.encode(result) else { continue }
                data.append(UInt8(ascii: "\n"))
                FileHandle.standardOutput.write(data)
            }
        }
    }

    /// What a worker gave back.
    private enum WorkerAnswer: Sendable {
        case result(ScenarioResult)
        case failed(String)
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
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        /// Sends one request and reads one line back; a closed pipe means the worker died.
        func ask(_ request: WorkerRequest) -> WorkerAnswer {
            guard var line = try? JSONEncoder().encode(request) else { return .failed("could not encode the request") }
            line.append(UInt8(ascii: "\n"))
            do { try input.fileHandleForWriting.write(contentsOf: line) } catch { return .failed(death()) }
            while true {
                if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let answer = buffer[buffer.startIndex..<end]
                    buffer = Data(buffer[(end + 1)...])
                    guard let result = try? JSONDecoder().decode(ScenarioResult.self, from: answer) else {
                        return .failed("the worker process answered something that is not a result")
                    }
                    return .result(result)
                }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return .failed(death()) }
                buffer.append(chunk)
            }
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
