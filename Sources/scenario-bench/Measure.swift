import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A run of another program: how long it took and its peak memory.
struct ChildRun {
    var wall: Duration
    /// User and system time of the program and the children it waited for: steadier than the
    /// wall time on a machine others use too.
    var cpu: Duration = .zero
    /// The peak of the largest single process: the program or a worker it started. On Linux the
    /// highest `VmHWM` sampled (the kernel's `ru_maxrss` of a spawned child also counts the
    /// spawning process, whose memory it shared until `exec`); elsewhere `ru_maxrss`.
    var peakMegabytes: Double
    /// The highest sum of the program's and its workers' resident memory seen while it ran
    /// (sampled every 20 ms; Linux only).
    var peakTotalMegabytes: Double?
    var status: Int32
}

/// Samples the resident memory of a process and its children while it runs, on its own thread.
private final class MemorySampler: @unchecked Sendable {
    private let pid: pid_t
    private let lock = NSLock()
    private var running = true
    private var peakKilobytes = 0
    private var largestKilobytes = 0
    private let done = DispatchSemaphore(value: 0)

    init(pid: pid_t) {
        self.pid = pid
        #if os(Linux)
            Thread.detachNewThread { [self] in
                while lock.withLock({ running }) {
                    let pids = [pid] + children()
                    let total = pids.compactMap { statusKilobytes($0, "VmRSS:") }.reduce(0, +)
                    let largest = pids.compactMap { statusKilobytes($0, "VmHWM:") }.max() ?? 0
                    lock.withLock {
                        peakKilobytes = max(peakKilobytes, total)
                        largestKilobytes = max(largestKilobytes, largest)
                    }
                    usleep(20_000)
                }
                done.signal()
            }
        #else
            done.signal()
        #endif
    }

    /// Stops sampling; the peaks in megabytes (all processes together, the largest one), or `nil`
    /// where nothing could be sampled.
    func stop() -> (total: Double, largest: Double)? {
        lock.withLock { running = false }
        done.wait()
        let (total, largest) = lock.withLock { (peakKilobytes, largestKilobytes) }
        return total > 0 ? (Double(total) / 1024, Double(largest) / 1024) : nil
    }

    /// Processes started by any of the process's threads (workers are started off the main one).
    private func children() -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
        }
    }
}

/// A memory line of `/proc/PID/status` (`VmRSS:`, `VmHWM:`), in kilobytes (Linux; `nil` elsewhere).
func statusKilobytes(_ pid: pid_t, _ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) })
    else { return nil }
    return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
}

enum Measure {
    /// Runs a program to its end with its output thrown away, measuring its wall time and the
    /// peak memory of its largest process and of all its processes together.
    static func child(_ program: String, _ arguments: [String], in directory: String) -> ChildRun {
        var pid: pid_t = 0
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil  // an opaque pointer there
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(directory)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        let started = ContinuousClock.now
        guard posix_spawn(&pid, program, &actions, nil, argv, envp) == 0 else {
            return ChildRun(wall: .zero, peakMegabytes: 0, status: -1)
        }
        let sampler = MemorySampler(pid: pid)
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let wall = ContinuousClock.now - started
        let sampled = sampler.stop()
        #if canImport(Darwin)
            let megabytes = Double(usage.ru_maxrss) / 1_048_576  // bytes
        #else
            let megabytes = sampled?.largest ?? Double(usage.ru_maxrss) / 1024  // kilobytes
        #endif
        let cpu =
            Duration.seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + .microseconds(Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec))
        return ChildRun(wall: wall, cpu: cpu, peakMegabytes: megabytes, peakTotalMegabytes: sampled?.total, status: status)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    var microseconds: Double { seconds * 1e6 }
}

/// Prints rows as an aligned table.
struct Table {
    var title: String
    var rows: [[String]] = []

    mutating func add(_ cells: String...) { rows.append(cells) }

    func print() {
        Swift.print("\n" + title)
        let widths = (0..<(rows.map(\.count).max() ?? 0)).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        for row in rows {
            Swift.print(
                row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
    }
}

func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
