import Foundation
import ScenarioKit

/// `scenario __worker`: not for people. `run --jobs N` starts N of these and hands each one
/// scenario at a time on standard input; results come back as JSON lines on standard output.
struct WorkerCommand {
    static let name = "__worker"

    var options = RunOptions()
    var repeatCount = 1

    /// Reads the flags `run` passes on; the parent checked them already.
    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--route": options.route = rest.popFirst().flatMap(RunOptions.Route.init(rawValue:)) ?? .direct
            case "--repeat": repeatCount = rest.popFirst().flatMap { Int($0) }.map { max(1, $0) } ?? 1
            case "--show-secrets": options.revealSecrets = true
            default: break
            }
        }
    }

    func serve(driver: any ScenarioDriver) async {
        await WorkerPool.serve(driver: driver, options: options, repeatCount: repeatCount)
    }
}
