import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A run of another program: how long it took and its peak memory.
struct ChildRun {
    var wall: Duration
    var peakMegabytes: Double
    var status: Int32
}

enum Measure {
    /// Runs a program to its end with its output thrown away; peak memory is the program's own
    /// (worker processes it starts are not counted).
    static func child(_ program: String, _ arguments: [String], in directory: String) -> ChildRun {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
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
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let wall = ContinuousClock.now - started
        #if canImport(Darwin)
            let megabytes = Double(usage.ru_maxrss) / 1_048_576  // bytes
        #else
            let megabytes = Double(usage.ru_maxrss) / 1024  // kilobytes
        #endif
        return ChildRun(wall: wall, peakMegabytes: megabytes, status: status)
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
