import Foundation
import ScenarioKit

/// Values the app's blocks note from any queue or thread, answered as one JSON object in the
/// order they were noted.
final class Noted: @unchecked Sendable {
    private let lock = NSLock()
    private var pairs: [(String, JSONValue)] = []
    func note(_ key: String, _ value: JSONValue) { lock.withLock { pairs.append((key, value)) } }
    var value: JSONValue { lock.withLock { .object(JSONObject(pairs)) } }
}
