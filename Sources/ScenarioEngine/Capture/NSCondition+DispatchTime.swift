import Foundation

extension NSCondition {
    /// Waits until `deadline` on Dispatch's clock, which is real on every thread: a runner's
    /// `Date()` is its scenario's, so `wait(until: Date)` would wait on virtual time there.
    func wait(until deadline: DispatchTime) -> Bool {
        let now = DispatchTime.now()
        guard deadline > now else { return false }
        let seconds = Double(deadline.uptimeNanoseconds - now.uptimeNanoseconds) / 1e9
        return DispatchCapture.withRealClocks { wait(until: Date(timeIntervalSinceNow: seconds)) }
    }
}
