import CRuntimeHooks
import Foundation

/// A `Timer` the stack puts on the main run loop from the runner (Linux): `Timer.scheduledTimer`
/// or `RunLoop.current.add(_:forMode:)` in main-queue work, or `RunLoop.main.add(_:forMode:)`
/// anywhere. Nothing runs the runner's run loop, so the timer does not join it: its ticks are deadlines on the virtual clock, and each
/// fires as a main-queue block, one at a time with the scenario's other work, as the main
/// thread's run loop would fire it. CoreFoundation still does the firing itself (see
/// `ssdc_timer_fire`), so a repeating timer, `invalidate()` and a moved `fireDate` behave as
/// they do on a run loop.
final class RunLoopTimer: @unchecked Sendable {
    /// The CFRunLoopTimer and its mode, retained while a tick is on the clock.
    private let timer: UnsafeMutableRawPointer
    private let mode: UnsafeMutableRawPointer
    private let scheduler: ScenarioScheduler

    /// Takes `timer` when the calling thread runs a scenario; `false` leaves it to the run loop.
    static func take(_ timer: UnsafeMutableRawPointer?, mode: UnsafeMutableRawPointer?, loop: Int32) -> Bool {
        guard let timer, let mode, let scheduler = Capture.currentScheduler else { return false }
        // Only the main run loop runs, on a device: a timer joins it from main-queue work
        // (`scheduledTimer` there) or by name (`RunLoop.main.add`). One scheduled from another
        // queue's block or a task off the main actor joins a run loop nothing runs, and never
        // fires: it is taken and never ticks (left on the runner's loop, another timer's firing
        // pass would fire it).
        let joinsMain =
            loop == Int32(SSDC_LOOP_MAIN) || (loop == Int32(SSDC_LOOP_CURRENT) && DispatchCapture.runsOnMain(scheduler.currentQueue))
        guard joinsMain else { return loop == Int32(SSDC_LOOP_CURRENT) }
        let taken = RunLoopTimer(timer: timer, mode: mode, scheduler: scheduler)
        taken.tick(after: delay(ssdc_timer_next_fire(timer) - ssdc_absolute_now()))
        return true
    }

    private init(timer: UnsafeMutableRawPointer, mode: UnsafeMutableRawPointer, scheduler: ScenarioScheduler) {
        ssdc_cf_retain(timer)
        ssdc_cf_retain(mode)
        self.timer = timer
        self.mode = mode
        self.scheduler = scheduler
    }

    deinit {
        ssdc_cf_release(timer)
        ssdc_cf_release(mode)
    }

    /// The delay meant by `seconds` of CoreFoundation's time, a `Double` since 2001 and so about
    /// 0.1 µs coarse: the roundest delay within a microsecond of it.
    private static func delay(_ seconds: Double) -> Duration {
        guard seconds > 0, seconds.isFinite else { return .zero }
        let near = Duration.seconds(min(seconds, 1e12))
        return Capture.roundest(from: max(near - .microseconds(1), .zero), to: near + .microseconds(1))
    }

    private func tick(after delay: Duration) {
        scheduler.clock.schedule(at: scheduler.clock.now.advanced(by: delay), label: "Timer on a run loop") { [self] in
            // On the runner: a main-queue block of the scenario's.
            DispatchQueue.main.async { self.fire() }
        }
    }

    private func fire() {
        guard ssdc_timer_is_valid(timer) != 0 else { return }
        let early = ssdc_timer_next_fire(timer) - ssdc_absolute_now()
        // The stack set a later fire date meanwhile.
        guard early <= 0.000_01 else { return tick(after: Self.delay(early)) }
        ssdc_timer_fire(timer, mode)
        let interval = ssdc_timer_interval(timer)
        if interval > 0, ssdc_timer_is_valid(timer) != 0 { tick(after: Self.delay(interval)) }
    }
}
