import Foundation
import ScenarioEngine

/// Values the app's blocks note from any queue or thread, answered as one JSON object in the
/// order they were noted.
package final class Noted: @unchecked Sendable {
    package init() {}
    private let lock = NSLock()
    private var pairs: [(String, JSONValue)] = []
    package func note(_ key: String, _ value: JSONValue) { lock.withLock { pairs.append((key, value)) } }
    package var value: JSONValue { lock.withLock { .object(JSONObject(pairs)) } }
}
