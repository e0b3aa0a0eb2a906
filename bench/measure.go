package bench

import "testing"

// usage is a snapshot of the process's resource counters.
type usage struct {
	vcsw  int64 // voluntary context switches: the thread blocked (futex sleep, I/O wait)
	ivcsw int64 // involuntary context switches: the kernel preempted the thread
	cpuNs int64 // user plus system CPU time, in nanoseconds
}

// meter brackets the timed loop of one benchmark run and reports what the
// process consumed during it, divided by b.N.
type meter struct {
	b     *testing.B
	start usage
	ok    bool
}

// startMeter takes the first snapshot and then resets the benchmark timer,
// so setup done before the call is neither timed nor counted.
func startMeter(b *testing.B) *meter {
	m := &meter{b: b}
	m.start, m.ok = readUsage()
	b.ResetTimer()
	return m
}

// stop stops the benchmark timer and reports the per-operation deltas:
// vcsw/op, ivcsw/op and cpu-ns/op. Where the platform has no usage
// counters it reports nothing.
func (m *meter) stop() {
	m.b.StopTimer()
	end, ok := readUsage()
	if !m.ok || !ok || m.b.N <= 0 {
		return
	}
	n := float64(m.b.N)
	m.b.ReportMetric(float64(end.vcsw-m.start.vcsw)/n, "vcsw/op")
	m.b.ReportMetric(float64(end.ivcsw-m.start.ivcsw)/n, "ivcsw/op")
	m.b.ReportMetric(float64(end.cpuNs-m.start.cpuNs)/n, "cpu-ns/op")
}
