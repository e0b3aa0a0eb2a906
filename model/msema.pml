/*
 * msema.pml: a Promela model, for the Spin model checker, of the M
 * semaphore that the spinbit mutex sleeps on where the OS has futexes:
 * semasleep and semawakeup on the futex word m.waitsema, in the
 * lock_futex*.go file of goroot/src/runtime that declares semasleep
 * (lock_futex.go in the go1.27 series, lock_futexsema.go in the go1.23
 * series). spinbit.pml takes that semaphore to be a
 * count of the wakeups its M has not taken; this model checks the futex
 * code against that.
 *
 * One process, the M, sleeps on its semaphore until it has taken NW
 * wakeups; NW processes each send it one. Each sleep of the M is for ever
 * (semasleep(-1)) or has a limit, chosen anew each time; the limit of one
 * may run out at any moment, at most NOUT times in a run, and futexsleep
 * may return early (a signal) at most NEARLY times, so that every run is
 * finite.
 *
 * The kernel: futexsleep(addr, val, ns) compares *addr with val and, if
 * they are equal, queues the M, in one step; it returns once futexwakeup
 * dequeues it, or early, or when ns runs out. futexwakeup(addr, 1)
 * dequeues the M if it is queued.
 *
 * The count is waitsema read as an int32, as the Go code reads it: n >= 0
 * wakeups not taken and no sleeper, or -1: the M has announced a sleep,
 * and no wakeup is pending.
 *
 * What is checked:
 *   - no lost wakeup: an M that waits in the kernel, or loops, for a
 *     wakeup that was sent while every sender is done is an invalid end
 *     state (the M stops only once it has taken NW);
 *   - a sleep returns as woken only for a wakeup sent and not yet taken
 *     (assertion where it returns 0);
 *   - a wake makes the futexwakeup system call only for an M that has
 *     announced its sleep (assertion in W): a wakeup that comes first is
 *     left in the count, without a call into the kernel;
 *   - a clean end (proctype final): the count is 0 and the M not queued.
 *
 * Defines: NW, NOUT, NEARLY (above). Each -DMUTANT_... changes one marked
 * spot.
 */

#ifndef NW
#define NW 2            /* wakers, one wakeup each */
#endif
#ifndef NOUT
#define NOUT 2          /* limited sleeps whose time may run out */
#endif
#ifndef NEARLY
#define NEARLY 1        /* early returns of futexsleep */
#endif

#define ASLEEP (-1)     /* waitsemaAsleep: the M has announced a sleep */

int  waitsema = 0;      /* m.waitsema, as an int32 */
bool queued = false;    /* model: the M waits in the kernel's futex queue */
byte sent = 0;          /* model: wakeups sent */
byte taken = 0;         /* model: wakeups the M's sleeps took */
bool announced = false; /* model: the M's -1 is in the count */
byte outs = 0;          /* model: limits that ran out */
byte earlies = 0;       /* model: early returns of futexsleep */
byte done = 0;          /* model: processes that finished */

#define TAKE() announced = false; taken++; assert(taken <= sent)

active proctype M() {
	bool timed;
	do
	:: taken == NW -> break
	:: taken < NW ->
		if
		:: timed = true
		:: timed = false
		fi;
		/* Take a wakeup that came first, or announce the sleep. */
		atomic {        /* go semasleep: `if int32(atomic.Xadd(&mp.waitsema, -1)) >= 0 {`, `return 0` */
			waitsema--;
			if
			:: waitsema >= 0 -> TAKE(); goto next
			:: else -> announced = true
			fi
		}
sleep:
		atomic {        /* go semasleep: `futexsleep(&mp.waitsema, waitsemaAsleep, ns)` */
#ifndef MUTANT_SLEEP_ON_ZERO
			if
			:: waitsema == ASLEEP -> queued = true
			:: else -> skip
			fi
#else
			if      /* mutant: compares with 0, as a count that never goes below 0 would */
			:: waitsema == 0 -> queued = true
			:: else -> skip
			fi
#endif
		}
		/* The kernel returns it: woken, early, or at its limit. */
		if
		:: !queued -> skip
		:: atomic { queued && earlies < NEARLY -> queued = false; earlies++ }   /* model: a signal */
		:: atomic { queued && timed && outs < NOUT -> queued = false }           /* model: the limit */
		fi;
		atomic {        /* go semasleep: `if int32(atomic.Load(&mp.waitsema)) >= 0 {`, `return 0` */
			if
			:: waitsema >= 0 -> TAKE(); goto next
			:: else -> skip
			fi
		}
		if
		:: timed && outs < NOUT ->
			/* The time ran out: withdraw the announcement, unless a
			 * wakeup has already cancelled it. */
			atomic {        /* go semasleep: `if atomic.Cas(&mp.waitsema, waitsemaAsleep, 0) {`, `return -1`, `return 0` */
				outs++;
#ifndef MUTANT_NO_WITHDRAW
				if
				:: waitsema == ASLEEP -> waitsema = 0; announced = false
				:: else -> TAKE()
				fi
#else
				announced = false       /* mutant: returns -1 and leaves its -1 in the count */
#endif
				goto next
			}
		:: goto sleep   /* no limit, or time left */
		fi;
next:
		skip
	od;
	done++
}

active [NW] proctype W() {
	bool wake;
	atomic {        /* go semawakeup: `atomic.Xadd(&mp.waitsema, 1)` */
		waitsema++;
		sent++;
#ifndef MUTANT_WAKE_ON_ONE
		wake = (waitsema == 0);
#else
		wake = (waitsema == 1);         /* mutant: wakes on a rise from 0 */
#endif
		assert(!wake || announced)      /* a system call only for an M that announced its sleep */
	}
	if
	:: wake ->
		atomic {        /* go semawakeup: `futexwakeup(&mp.waitsema, 1)` */
			queued = false
		}
	:: else -> skip
	fi;
	done++
}

active proctype final() {
	atomic {        /* model: every process finished */
		done == NW + 1 ->
		assert(waitsema == 0 && !queued && taken == NW && sent == NW)
	}
}
