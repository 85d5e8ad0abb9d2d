import Foundation

/// How to start a worker process of a ``WorkerPool``.
package struct WorkerLaunch: Sendable {
    /// The program to start.
    package var executable: URL
    /// Its arguments, which must make it call ``WorkerPool/serve(driver:followUp:)``.
    package var arguments: [String]
    /// Real time a worker may go without running any of its scenario's work before it is stopped.
    package var stallLimit: Duration

    /// Describes how to start a worker; `stallLimit` is 60 s unless `SCENARIO_STALL_SECONDS` says otherwise.
    package init(executable: URL, arguments: [String], stallLimit: Duration? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.stallLimit = stallLimit ?? StallWatch.limit
    }
}
