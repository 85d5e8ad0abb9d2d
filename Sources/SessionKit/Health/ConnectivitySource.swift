/// Whether the device is online, from whatever the platform offers (`NWPathMonitor`, ...).
public protocol ConnectivitySource: Sendable {
    /// Whether the device currently has a network path.
    func isOnline() async -> Bool
}
