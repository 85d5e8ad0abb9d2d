import Foundation

/// What a worker is asked to run: one line of JSON on its standard input.
struct WorkerRequest: Codable {
    var file: String
    var id: String
    var plan: RunPlan
    /// The scenario's text, loaded as if read from `file` (so the same invariant files govern
    /// it): a shrink's candidate. `nil`: the worker reads the file.
    var text: String?
}
