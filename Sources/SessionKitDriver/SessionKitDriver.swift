import Foundation
import HTTPCore
import ScenarioKit

/// The scenario driver for SessionKit: action names to calls, and the state snapshot.
public struct SessionKitDriver: ScenarioDriver {
    /// Creates the driver.
    public init() {}

    public var name: String { "SessionKit" }
    public var actions: [ActionSpec] { [] }
    public var givenKeys: [GivenSpec] { [] }

    public func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        throw CocoaError(.featureUnsupported)
    }
}
