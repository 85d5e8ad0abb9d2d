import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Swift seeds the order of each Dictionary and Set from its address, unless the process started
/// with `SWIFT_DETERMINISTIC_HASHING=1`: code that walks one (the stack's, or FoundationNetworking's
/// `invalidateAndCancel()`, which cancels tasks in the order of a dictionary) then takes another
/// order on every run. The runtime reads the variable once, as the process starts.
package enum DeterministicHashing {
    static let variable = "SWIFT_DETERMINISTIC_HASHING"

    /// Whether this process walks dictionaries and sets in the same order on every run.
    package static let isOn = ProcessInfo.processInfo.environment[variable] == "1"

    /// Starts this program again, with the same arguments, with deterministic hashing; returns only
    /// when it is on already, the variable is set otherwise on purpose, or the program cannot start.
    package static func startAgainIfOff() {
        #if os(Linux) || os(macOS)
            guard ProcessInfo.processInfo.environment[variable] == nil else { return }
            #if os(Linux)
                let program = "/proc/self/exe"
            #else
                guard let program = Bundle.main.executablePath else { return }
            #endif
            setenv(variable, "1", 1)
            let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
            execv(program, arguments)
            // Not started again: go on as it is, the variable undone so children agree.
            unsetenv(variable)
            for argument in arguments { free(argument) }
        #endif
    }
}
