/*
 * spinbit.pml: a Promela model, for the Spin model checker, of the
 * go-spinbit runtime mutex as goroot/src/runtime/lock_spinbit.go
 * implements it: lock2, lock2Slow, mutexSleepOnStack, mutexPushed,
 * withSleepHint, unlock2, unlock2Wake, mutexWakeOne, mutexUnlink,
 * mutexWakee, and the crash path (mutexOnCrashPath, mutexCrashWait), with
 * the M semaphore of lock_futexsema.go (semasleep(-1) and semawakeup) and
 * the partial M pointers of lock_mkey.go.
 *
 * One process is one M that takes and releases the one mutex, l. Every
 * atomic block of an M is one atomic operation of the Go code (an 8-bit
 * swap, OR or AND, a word CAS, a load, or a semaphore call) together with
 * the local computation that follows it up to the next shared access. The
 * comment on each names the Go function and quotes, in backquotes, the Go
 * statements it stands for; model/README.md says how a test keeps those
 * quotes honest, and which steps fold in more and why.
 *
 * What is checked (model/README.md has the checks and the mutants):
 *   - mutual exclusion, who holds mutexLocked, the shape of the stack of
 *     sleepers, who owns mutexSpinning, mutexStackLocked and the claim
 *     (mutexHeir), the hint only while l is held: the invariant of
 *     proctype monitor;
 *   - the bound of the heir: from its heir event on, no other M passes
 *     the claim check of lock2 or lock2Slow before the heir enters
 *     (BUDGET, 0 by default; assertion in acquired());
 *   - when the heir event comes: a spinner that has failed BYP times
 *     and is not the heir never goes on from a look or a failed CAS
 *     without its heir event, other than by taking l (assertion in
 *     notLate());
 *   - the wakes a sleeper waits for: while an M sleeps on the stack, the
 *     wakes that take other Ms off it, a sleeping heir's aside, number at
 *     most (TOPWAKES+1)*(b+1)-1, where b is the number of Ms below it when
 *     it pushed itself; and at most POPMAX other Ms are taken off in all
 *     (assertions in takenOff());
 *   - no lost wakeup: a sleeper nobody wakes is an invalid end state, and
 *     proctype final asserts that l is free and idle once every M is done;
 *   - at most one wakeup pending per M (assertion at semawakeup);
 *   - progress under weak fairness: "terminates" (every M finishes its
 *     acquisitions) and, with FOREVER, "live" (every M that calls lock2
 *     enters).
 *
 * -DFOREVER makes every M lock and unlock forever instead of NACQ times.
 * -DCRASH adds a signal handler on M 1 that takes l once on the crash
 * path while M 1 is frozen. Each -DMUTANT_... changes one marked spot.
 */

/* ---- configuration ---------------------------------------------------- */

#ifndef NM
#define NM 3            /* Ms taking part: 2 or 3 */
#endif
#if NM < 2 || NM > 3
#error "NM must be 2 or 3"
#endif
#ifndef NACQ
#define NACQ 1          /* acquisitions per M, without FOREVER */
#endif
#ifndef NACQ1
#define NACQ1 NACQ      /* acquisitions of M 1 */
#endif
/* mutexActiveSpins+mutexPassiveSpins: the spinner's polls before it
 * sleeps. Go's is larger; what matters here is that it is finite. */
#ifndef SPINS
#define SPINS 1
#endif
/* mutexStarveAfter (2 in Go): failures that make a waiter starving. */
#ifndef BYP
#define BYP 1
#endif
/* mutexTopWakes (3 in Go): the wakes that may take the top of the stack
 * while one M sleeps at its bottom. */
#ifndef TOPWAKES
#define TOPWAKES 1
#endif
/* entries by other Ms allowed after an heir event, before the heir's */
#ifndef BUDGET
#define BUDGET 0
#endif
/* wakes of other Ms, a sleeping heir's included, allowed while an M
 * sleeps on the stack */
#ifndef POPMAX
#define POPMAX 255
#endif

/* ---- the key word, with the Go constants' values ----------------------- */

#define mutexLocked      1
#define mutexSleeping    2
#define mutexSpinning    256
#define mutexStackLocked 512
#define mutexHeir        1024
#define mutexMBits       11
#define lowByte          255   /* key8: the swaps write all of it */
#define flagBits         2047  /* ^mutexMMask */
#define unusedBits       252   /* bits 2-7 */

/* Ms are numbered 1..NM, and 0 is nil; the handler of -DCRASH is HID.
 * M m is kept in the key word as m<<mutexMBits, for its partial pointer. */
#define HID (NM + 1)
#define mutexPartialM(m) ((m) << mutexMBits)
#define mutexMFromKey(x) ((x) >> mutexMBits)
#define withSleepHint(x) ((mutexMFromKey(x) != 0) -> ((x) | mutexSleeping) : (x))

int  key;                       /* l.key */
byte nextwaitm[NM + 1];         /* m.mWaitList.next; [0], nil's, stays 0 */
byte waitsema[NM + 1];          /* m.waitsema, the futex word of an M's semaphore */
bool infutex[NM + 1];           /* the kernel: the M waits in futexsleep */
bool heirMark[NM + 1];          /* m.mWaitList.heir */
byte topWakes[NM + 1];          /* m.mWaitList.topWakes */

/* Where unlock2Wake or mutexWakeOne returns to. */
#define RET_BACKOFF 1           /* lock2's back-off: on to lock2Slow */
#define RET_UNLOCK  2           /* unlock2: it returns */
#define RET_BLOCKED 3           /* lock2Slow's wake of a claimed free l: on to its load */

/* ---- ghost state, read only by the checks ------------------------------ */

byte holders;                   /* Ms in their critical sections */
byte owner;                     /* the M (or HID) that holds mutexLocked, or 0 */
byte spinOwner;                 /* the M that owns mutexSpinning, or 0 */
byte stackOwner;                /* the M (or HID) that owns mutexStackLocked, or 0 */
byte heirOwner;                 /* the heir, from its heir event to its entry, or 0 */
byte unlinked;                  /* an M unlinked from below the top, not yet given mutexSpinning */
bool onStack[NM + 1];           /* pushed and not taken off */
byte nstack;                    /* Ms on the stack */
bool want[NM + 2];              /* inside lock2, not yet entered */
byte budget[NM + 1];            /* the heir: entries by others still allowed before its own */
byte below[NM + 1];             /* a sleeper: Ms on the stack below it when it pushed itself */
byte pops[NM + 1];              /* a sleeper: Ms but a sleeping heir taken off the stack since its push */
byte allPops[NM + 1];           /* a sleeper: Ms taken off the stack since its push */
#ifndef FOREVER
byte done;                      /* Ms that finished their NACQ acquisitions */
#endif
#ifdef CRASH
bool intr;                      /* the handler runs on M 1, which is frozen */
byte m1pid = 255;               /* M 1's process id */
bool hdone;                     /* the handler has returned */
#endif

/* ---- the invariant ------------------------------------------------------ */

#define K0 mutexMFromKey(key)
#define K1 nextwaitm[K0]
#define K2 nextwaitm[K1]
#define K3 nextwaitm[K2]
#if NM >= 3
#define STACKOK (K3 == 0 && (K1 == 0 || K1 != K0) && (K2 == 0 || (K2 != K0 && K2 != K1)))
#define LISTED(m) (K0 == (m) || K1 == (m) || K2 == (m))
#define MEMBERS ((onStack[1] == LISTED(1)) && (onStack[2] == LISTED(2)) && (onStack[3] == LISTED(3)))
#define IDLE(m) (waitsema[m] == 0 && !infutex[m] && !onStack[m] && !heirMark[m])
#define ALLIDLE (IDLE(1) && IDLE(2) && IDLE(3))
#else
#define STACKOK (K2 == 0 && (K1 == 0 || K1 != K0))
#define LISTED(m) (K0 == (m) || K1 == (m))
#define MEMBERS ((onStack[1] == LISTED(1)) && (onStack[2] == LISTED(2)))
#define IDLE(m) (waitsema[m] == 0 && !infutex[m] && !onStack[m] && !heirMark[m])
#define ALLIDLE (IDLE(1) && IDLE(2))
#endif

/* True in every state:
 *   - at most one M is in its critical section;
 *   - mutexLocked is set exactly while some M holds it;
 *   - the stack has no cycle and no M twice, and holds exactly the Ms that
 *     pushed themselves and were not taken off;
 *   - mutexSpinning is set exactly when an M owns it, and likewise
 *     mutexStackLocked;
 *   - while an M is the heir, mutexHeir is set, and the heir is the
 *     spinner, or asleep on the stack (or taken off it and not yet given
 *     mutexSpinning) while nobody spins;
 *   - the hint is set only while l is held;
 *   - bits 2-7, which every swap of the low byte writes, stay zero.
 * Each is asserted on its own, so that pan names the one that failed. */
#define LOCKOK  (((key & mutexLocked) != 0) == (owner != 0))
#define SPINOK  (((key & mutexSpinning) != 0) == (spinOwner != 0))
#define SLOK    (((key & mutexStackLocked) != 0) == (stackOwner != 0))
#define HEIROK  (heirOwner == 0 || ((key & mutexHeir) != 0 && \
		 (spinOwner == heirOwner || (spinOwner == 0 && (onStack[heirOwner] || unlinked == heirOwner)))))
#define HINTOK  ((key & mutexSleeping) == 0 || (key & mutexLocked) != 0)
#define INVARIANT (holders <= 1 && LOCKOK && nextwaitm[0] == 0 && STACKOK && MEMBERS && \
		   SPINOK && SLOK && HEIROK && HINTOK && (key & unusedBits) == 0)

active proctype monitor() {
end:	atomic {        /* model: the invariant */
		!(INVARIANT) ->
		assert(holders <= 1);
		assert(LOCKOK);
		assert(nextwaitm[0] == 0 && STACKOK);
		assert(MEMBERS);
		assert(SPINOK);
		assert(SLOK);
		assert(HEIROK);
		assert(HINTOK);
		assert((key & unusedBits) == 0)
	}
}

#ifndef FOREVER
#ifdef CRASH
#define ALLDONE (done == NM && hdone)
#else
#define ALLDONE (done == NM)
#endif
/* Once every M is done: l is free, unclaimed and its hint clear; nobody
 * spins, owns the stack, sleeps or is the heir, and no semaphore holds a
 * wakeup nobody took. */
active proctype final() {
end:	atomic { ALLDONE -> assert(key == 0 && ALLIDLE && holders == 0 && owner == 0 && spinOwner == 0 && stackOwner == 0 && heirOwner == 0) }   /* model: the end */
}
#endif

/* ---- ghost steps --------------------------------------------------------- */

/* me enters its critical section. An entry after the claim check of
 * lock2 or lock2Slow counts against the heir's budget; the model's entry
 * is that check. */
inline acquired() {
	assert(owner == me);            /* only the holder of mutexLocked enters */
	holders++;
	assert(holders == 1);           /* mutual exclusion */
	if
	:: heirOwner != 0 && heirOwner != me ->
		assert(budget[heirOwner] > 0);  /* the bound of the heir */
		budget[heirOwner]--
	:: else -> skip
	fi;
	want[me] = false
}

/* me's heir event: the OR of mutexHeir as spinner, or the load at which
 * it finds it set as spinner. */
inline heirEvent() {
	assert(heirOwner == 0);         /* one heir at a time */
	heirOwner = me;
	budget[me] = BUDGET
}

/* me goes on from a look or a failed CAS without taking l: to poll, wake,
 * push itself or look again. A starving spinner has had its heir event
 * by then: it must be the heir. */
inline notLate() {
	assert(!spinning || heir || failures < BYP)     /* the time of the heir event */
}

/* The wake takes w off the stack (its CAS as the top, or its unlink from
 * below the top): count it against every other sleeper. w's own link is
 * dead until its next push writes it: clear it, so that states differing
 * only there are one. */
inline takenOff(i) {
	assert(onStack[w]);
	onStack[w] = false;
	nstack--;
	nextwaitm[w] = 0;
	pops[w] = 0; allPops[w] = 0; below[w] = 0; topWakes[w] = 0;
	for (i : 1 .. NM) {
		if
		:: onStack[i] ->
			if
			:: !heirMark[w] ->
				pops[i]++;
				assert(pops[i] <= (TOPWAKES + 1) * (below[i] + 1) - 1)  /* the wakes a sleeper waits for */
			:: else -> skip
			fi;
			allPops[i]++;
			assert(allPops[i] <= POPMAX)    /* the wakes a sleeper sees */
		:: else -> skip
		fi
	}
	i = 0
}

/* ---- the waking: unlock2Wake, mutexWakeOne, mutexWakee ------------------ */

/* mutexWakee: the heir if v shows a claim and the heir sleeps; else the
 * top of the stack, if the bottom is below it and has seen fewer than
 * TOPWAKES wakes of the top while at the bottom, counting this one; else
 * the bottom. It reads the links, the marks and the counts of Ms on the
 * stack of v, and writes the bottom's count, which only the stack's owner
 * changes. */
inline mutexWakee() {
	w = 0;
	t = mutexMFromKey(v);
	if
	:: (v & mutexHeir) != 0 ->
		do
		:: t != 0 && heirMark[t] -> w = t; break
		:: t != 0 && !heirMark[t] -> t = nextwaitm[t]
		:: t == 0 -> break
		od;
#ifdef MUTANT_WAKE_IGNORES_HEIR
		w = 0;          /* mutant: the wake ignores the sleeping heir */
#endif
		t = mutexMFromKey(v)
	:: else -> skip
	fi;
	if
	:: w == 0 ->
#ifndef MUTANT_WAKE_TOP
		do
		:: nextwaitm[t] != 0 -> t = nextwaitm[t]
		:: else -> break
		od;
		if
#ifndef MUTANT_TOPWAKES_ONE_MORE
		:: t != mutexMFromKey(v) && topWakes[t] < TOPWAKES ->
#else
		:: t != mutexMFromKey(v) && topWakes[t] <= TOPWAKES ->   /* mutant: one wake of the top too many */
#endif
			topWakes[t]++;
			w = mutexMFromKey(v)
		:: else -> w = t
		fi
#else
		w = t           /* mutant: wake the top, the M that slept last */
#endif
	:: else -> skip
	fi;
	t = 0
}

/* Where a wake returns to. */
inline wakeReturn() {
	if
	:: ret == RET_BACKOFF -> ret = 0; goto slow
	:: ret == RET_UNLOCK -> ret = 0; goto unlocked
	:: ret == RET_BLOCKED -> ret = 0; goto s_load
	fi
}

/* unlock2Wake (from its first step, which the caller labels w_load) and
 * mutexWakeOne (from w_take), run by pm. A wake returns to the caller's
 * labels slow, unlocked or s_load (wakeReturn). */
inline wakeCode(pm) {
	atomic {        /* go unlock2Wake: `v := atomic.Loaduintptr(&l.key)`, `v = atomic.Loaduintptr(&l.key)`, `if v&mutexMMask == 0 {`, `if v&(mutexStackLocked|mutexSpinning) != 0 {`, `if mutexWakeOne(l, v) {` */
		v = key;
		if
		:: mutexMFromKey(v) == 0 -> v = 0; wakeReturn()
		:: mutexMFromKey(v) != 0 && (v & (mutexStackLocked | mutexSpinning)) != 0 -> v = 0; wakeReturn()
		:: else -> goto w_take
		fi
	}
w_take:
	atomic {        /* go mutexWakeOne: `if !atomic.Casuintptr(&l.key, v, v|mutexStackLocked) {`, `return false`, `v |= mutexStackLocked`, `w, event := mutexWakee(v)`, `if mutexMFromKey(v) == w {` */
		/* go mutexWakee: `if v&mutexHeir != 0 {`, `for p := top; p != nil; p = p.nextwaitm.ptr() {`, `if p.mWaitList.heir {`, `bottom := top`, `for bottom.nextwaitm != 0 {`, `bottom = bottom.nextwaitm.ptr()`, `if bottom != top && bottom.mWaitList.topWakes < mutexTopWakes {`, `bottom.mWaitList.topWakes++`, `return top, mutexEventWakeTop`, `return bottom, mutexEventWake` */
		if
		:: key == v ->
			key = v | mutexStackLocked;
			v = v | mutexStackLocked;
			assert(stackOwner == 0 && spinOwner == 0);
			stackOwner = pm;
			mutexWakee();
			if
			:: mutexMFromKey(v) == w -> goto w_pop
			:: else -> goto w_unlink
			fi
		:: else ->
			if
			:: ret == RET_BLOCKED -> v = 0; wakeReturn()
			:: else -> goto w_load
			fi
		fi
	}
w_pop:
	atomic {        /* go mutexWakeOne: `next := v&^(mutexMMask|mutexStackLocked|mutexSleeping) | mutexPartialM(w.nextwaitm.ptr()) | mutexSpinning`, `if atomic.Casuintptr(&l.key, v, next) {` */
		if
		:: key == v ->
			assert(stackOwner == pm && spinOwner == 0);
			key = (v & flagBits & ~(mutexStackLocked | mutexSleeping)) | mutexPartialM(nextwaitm[w]) | mutexSpinning;
			takenOff(t);
			stackOwner = 0;
			spinOwner = w;
			v = 0;
			goto w_wake
		:: else -> goto w_popload
		fi
	}
w_popload:
	atomic {        /* go mutexWakeOne: `v = atomic.Loaduintptr(&l.key)`, `continue`, `if mutexMFromKey(v) == w {` */
		v = key;
		if
		:: mutexMFromKey(v) == w -> goto w_pop
		:: else -> goto w_unlink
		fi
	}
	/* The unlink writes a link that only the stack's owner reads or
	 * writes, of an M asleep below the top: it is a step of its own, before
	 * the CAS that gives the stack up. */
w_unlink:
	atomic {        /* go mutexUnlink: `above := top`, `for above.nextwaitm.ptr() != w {`, `above = above.nextwaitm.ptr()`, `above.nextwaitm = w.nextwaitm` */
		/* go mutexWakeOne: `mutexUnlink(mutexMFromKey(v), w)` */
		t = mutexMFromKey(v);
		i = 0;
		do
		:: nextwaitm[t] == w -> break
		:: else -> assert(t != 0 && i < NM); t = nextwaitm[t]; i++
		od;
		nextwaitm[t] = nextwaitm[w];
		takenOff(i);
		t = 0;
		unlinked = w;
		goto w_give
	}
w_give:
	atomic {        /* go mutexWakeOne: `for !atomic.Casuintptr(&l.key, v, v&^(mutexStackLocked|mutexSleeping)|mutexSpinning) {` */
		if
		:: key == v ->
			assert(stackOwner == pm && spinOwner == 0);
			key = (v & ~(mutexStackLocked | mutexSleeping)) | mutexSpinning;
			stackOwner = 0;
			spinOwner = w;
			unlinked = 0;
			v = 0;
			goto w_wake
		:: else -> goto w_giveload
		fi
	}
w_giveload:
	atomic {        /* go mutexWakeOne: `v = atomic.Loaduintptr(&l.key)` */
		v = key;
#ifndef MUTANT_UNLINK_RETRY_ALL
		goto w_give
#else
		goto w_popload  /* mutant: redo the whole choice, not only the CAS */
#endif
	}
	/* semawakeup's Xadd and futexwakeup share a step: an M that has not
	 * yet entered futexsleep finds the count raised and does not sleep. */
w_wake:
	atomic {        /* go mutexWakeOne: `semawakeup(w)`, `return true` */
		/* go semawakeup: `if atomic.Xadd(&mp.waitsema, 1) == 1 {`, `futexwakeup(&mp.waitsema, 1)` */
		assert(waitsema[w] == 0);       /* never a second pending wakeup */
		if
		:: infutex[w] -> infutex[w] = false
		:: else ->
#ifndef MUTANT_SEMA_LOSE
			waitsema[w] = 1
#else
			skip    /* mutant: a wakeup given before the sleep is lost */
#endif
		fi;
		w = 0;
		wakeReturn()
	}
}

/* ---- the M ------------------------------------------------------------- */

/* A starving spinner that is not the heir claims l held at its look. */
#ifndef MUTANT_LATE_CLAIM
#define CLAIMNOW (spinning && !heir && failures >= BYP)
#else
#define CLAIMNOW (spinning && !heir && failures >= BYP && spins > 0)      /* mutant: it polls once first */
#endif

/* lock2Slow's decision at the top of its loop, after each load of v:
 * adopt a claim as spinner (the heir event), then take l, wake the heir,
 * take the role, poll, claim, or push. */
inline slowDecide() {
	if
	:: spinning && !heir && (v & mutexHeir) != 0 ->
		heirMark[me] = true; heir = true; heirEvent()
	:: else -> skip
	fi;
	if
	:: (v & mutexLocked) == 0 && heir -> goto s_heirswap
#ifdef MUTANT_SLOW_IGNORES_HEIR
	:: (v & mutexLocked) == 0 && !heir -> goto s_take       /* mutant: take a claimed l */
#else
	:: (v & mutexLocked) == 0 && !heir && (v & mutexHeir) == 0 -> goto s_take
	:: (v & mutexLocked) == 0 && !heir && (v & mutexHeir) != 0 &&
	   (v & (mutexSpinning | mutexStackLocked)) == 0 && mutexMFromKey(v) != 0 ->
#ifndef MUTANT_BLOCKED_NO_WAKE
		notLate(); ret = RET_BLOCKED; goto w_take
#else
		goto s_load     /* mutant: poll instead of waking the sleeping heir */
#endif
	:: (v & mutexLocked) == 0 && !heir && (v & mutexHeir) != 0 &&
	   !((v & (mutexSpinning | mutexStackLocked)) == 0 && mutexMFromKey(v) != 0) &&
	   (v & mutexSpinning) == 0 && mutexMFromKey(v) == 0 && failures >= BYP -> goto s_adopt
	:: (v & mutexLocked) == 0 && !heir && (v & mutexHeir) != 0 &&
	   !((v & (mutexSpinning | mutexStackLocked)) == 0 && mutexMFromKey(v) != 0) &&
	   !((v & mutexSpinning) == 0 && mutexMFromKey(v) == 0 && failures >= BYP) -> notLate(); goto s_load
#endif
	:: (v & mutexLocked) != 0 && CLAIMNOW -> goto s_claim
	:: (v & mutexLocked) != 0 && !CLAIMNOW &&
	   spinning && spins < SPINS -> notLate(); spins++; goto s_load
#ifndef MUTANT_ARRIVE_SPIN
	:: (v & mutexLocked) != 0 && !spinning &&
	   (v & mutexSpinning) == 0 && mutexMFromKey(v) == 0 && ((v & mutexHeir) == 0 || failures >= BYP) -> goto s_spin
	:: (v & mutexLocked) != 0 && !CLAIMNOW && !(spinning && spins < SPINS) &&
	   !(!spinning && (v & mutexSpinning) == 0 && mutexMFromKey(v) == 0 && ((v & mutexHeir) == 0 || failures >= BYP)) -> goto s_push
#else
	/* mutant: an M that does not spin takes mutexSpinning even while Ms sleep */
	:: (v & mutexLocked) != 0 && !spinning &&
	   (v & mutexSpinning) == 0 && ((v & mutexHeir) == 0 || failures >= BYP) -> goto s_spin
	:: (v & mutexLocked) != 0 && !CLAIMNOW && !(spinning && spins < SPINS) &&
	   !(!spinning && (v & mutexSpinning) == 0 && ((v & mutexHeir) == 0 || failures >= BYP)) -> goto s_push
#endif
	fi
}

/* A CAS of lock2Slow failed: count the failure, and once starving claim
 * (as spinner) or request a claim. */
inline slowFailed() {
	if
	:: failures < BYP -> failures++
	:: else -> skip
	fi;
	if
	:: failures >= BYP && !heir && spinning -> goto s_claim
#ifndef MUTANT_ARRIVE_NO_CLAIM
	:: failures >= BYP && !heir && !spinning -> goto s_request
#endif
	:: else -> notLate(); goto s_load
	fi
}

/* lock2Slow returns with l taken: clear its locals. */
inline slowDone() {
	v = 0; nv = 0; spins = 0; failures = 0; spinning = false; heir = false
}

#ifdef CRASH
proctype M(byte me) provided (_pid != m1pid || !intr)
#else
proctype M(byte me)
#endif
{
	int  v, nv;
	byte old8, w, t, i, ret, spins, failures;
	bool spinning, heir;
#ifndef FOREVER
	byte acq;
#endif

lock2:
	atomic {        /* go lock2: `prev := atomic.Xchg8(key8(&l.key), mutexLocked)`, `if prev&mutexLocked == 0 {`, `lock2Slow(l)` */
		want[me] = true;
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked;
		if
		:: (old8 & mutexLocked) == 0 -> assert(owner == 0 && old8 == 0); owner = me; goto f_check
		:: else -> old8 = 0; goto slow
		fi
	}
f_check:
	atomic {        /* go lock2: `if *keyFlags8(&l.key)&(mutexHeir>>8) == 0 {`, `return` */
		if
#ifndef MUTANT_FAST_IGNORES_HEIR
		:: (key & mutexHeir) == 0 -> acquired(); goto holding
		:: else -> goto f_backoff
#else
		:: true -> acquired(); goto holding     /* mutant: enter whatever the claim */
#endif
		fi
	}
f_backoff:
	atomic {        /* go lock2: `if atomic.Xchg8(key8(&l.key), 0)&mutexSleeping != 0 {`, `unlock2Wake(l)`, `lock2Slow(l)` */
		old8 = key & lowByte;
		key = key & ~lowByte;
		assert(owner == me);
		owner = 0;
		if
		:: (old8 & mutexSleeping) != 0 -> old8 = 0; ret = RET_BACKOFF; goto w_load
		:: else -> old8 = 0; goto slow
		fi
	}

	/* ---- lock2Slow ---- */
	/* No M of the model is on the crash path (the handler of -DCRASH
	 * is). */
slow:
	atomic {        /* go lock2Slow: `if mutexOnCrashPath(mp, gp, l) {`, `v := atomic.Loaduintptr(&l.key)`, `for {` */
		v = key;
		slowDecide()
	}
s_load:
	atomic {        /* go lock2Slow: `v = atomic.Loaduintptr(&l.key)`, `if spinning && !heir && v&mutexHeir != 0 {`, `mp.mWaitList.heir = true`, `heir = true` */
		v = key;
		slowDecide()
	}
s_heirswap:
	atomic {        /* go lock2Slow: `case heir:`, `if atomic.Xchg8(key8(&l.key), mutexLocked|mutexSleeping)&mutexLocked == 0 {` */
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked | mutexSleeping;
		if
		:: (old8 & mutexLocked) == 0 -> assert(owner == 0); owner = me; old8 = 0; goto s_heirand
		:: else -> old8 = 0; goto s_load        /* a fast path's swap or the crash path took l */
		fi
	}
	/* The mark is read only of an M asleep on the stack: its store shares
	 * the AND's step. */
s_heirand:
	atomic {        /* go lock2Slow: `mp.mWaitList.heir = false`, `atomic.And8(keyFlags8(&l.key), ^uint8((mutexSpinning|mutexHeir)>>8))`, `goto acquired` */
		assert(spinOwner == me && heirOwner == me && (key & (mutexSpinning | mutexHeir)) == (mutexSpinning | mutexHeir));
		heirMark[me] = false;
#ifndef MUTANT_HEIR_STICKY
		key = key & ~(mutexSpinning | mutexHeir);
		heirOwner = 0;
#else
		key = key & ~mutexSpinning;     /* mutant: the claim outlives the heir's entry */
#endif
		spinOwner = 0;
		acquired();
		slowDone();
		goto holding
	}
s_take:
	atomic {        /* go lock2Slow: `case v&mutexHeir == 0:`, `next := v | mutexLocked`, `next &^= mutexSpinning`, `if atomic.Casuintptr(&l.key, v, withSleepHint(next)) {`, `failed = true` */
		/* go withSleepHint: `if v&mutexMMask != 0 {`, `v |= mutexSleeping` */
		if
		:: key == v ->
			nv = v | mutexLocked;
			if
			:: spinning -> nv = nv & ~mutexSpinning; spinOwner = 0
			:: else -> skip
			fi;
#ifndef MUTANT_ACQUIRE_NO_HINT
			nv = withSleepHint(nv);
#endif
			key = nv;
			assert(owner == 0);
			owner = me;
			acquired();
			slowDone();
			goto holding
		:: else -> slowFailed()
		fi
	}
s_adopt:
	atomic {        /* go lock2Slow: `case v&(mutexSpinning|mutexMMask) == 0 && failures >= mutexStarveAfter:`, `if atomic.Casuintptr(&l.key, v, v|mutexSpinning) {`, `spinning, spins = true, 0` */
		if
		:: key == v ->
			key = v | mutexSpinning;
			assert(spinOwner == 0);
			spinOwner = me; spinning = true; spins = 0;
			goto s_load
		:: else -> slowFailed()
		fi
	}
s_claim:
	atomic {        /* go lock2Slow: `} else if spinning && !heir && failures >= mutexStarveAfter {`, `mp.mWaitList.heir = true`, `atomic.Or8(keyFlags8(&l.key), mutexHeir>>8)`, `heir = true` */
		heirMark[me] = true;
		key = key | mutexHeir;
		heir = true;
		heirEvent();
		goto s_load
	}
s_request:
	atomic {        /* go lock2Slow: `if failures >= mutexStarveAfter && !heir {`, `atomic.Or8(keyFlags8(&l.key), mutexHeir>>8)`, `mutexTortureNote(mutexEventHeirRequest)` */
		key = key | mutexHeir;
		goto s_load
	}
s_spin:
	atomic {        /* go lock2Slow: `if atomic.Casuintptr(&l.key, v, withSleepHint(v|mutexSpinning)) {`, `spinning, spins = true, 0`, `failed = true` */
		if
		:: key == v ->
			key = withSleepHint(v | mutexSpinning);
			assert(spinOwner == 0);
			spinOwner = me; spinning = true; spins = 0;
			goto s_load
		:: else -> slowFailed()
		fi
	}
	/* mutexPushed writes the M's link before the CAS; nobody reads it
	 * unless the CAS publishes the M, so the store shares the CAS's step
	 * (and a CAS that fails leaves the model's link as it was). */
s_push:
	atomic {        /* go lock2Slow: `if mutexSleepOnStack(l, v, spinning) {`, `failed = true` */
		/* go mutexSleepOnStack: `mp.mWaitList.inWait = true`, `pushed := atomic.Casuintptr(&l.key, v, mutexPushed(v, mp, giveUpSpin))` */
		/* go mutexPushed: `mp.nextwaitm.set(mutexMFromKey(v))`, `mp.mWaitList.topWakes = 0`, `next := v&^mutexMMask | mutexPartialM(mp) | mutexSleeping`, `next &^= mutexSpinning` */
		notLate();
		if
		:: key == v ->
			assert((v & mutexLocked) != 0 && !onStack[me]);
			nextwaitm[me] = mutexMFromKey(v);
			topWakes[me] = 0;
#ifndef MUTANT_PUSH_NO_HINT
			nv = (v & flagBits) | mutexPartialM(me) | mutexSleeping;
#else
			nv = (v & flagBits) | mutexPartialM(me);        /* mutant: the push sets no hint */
#endif
			if
			:: spinning -> nv = nv & ~mutexSpinning; spinOwner = 0; spinning = false
			:: else -> skip
			fi;
			key = nv;
			nv = 0; v = 0; spins = 0;
			below[me] = nstack; onStack[me] = true; nstack++;
			goto s_sleep
		:: else -> slowFailed()
		fi
	}
	/* semasleep(-1): the load, the CAS that takes a wakeup and the
	 * futexsleep that compares the count with 0 share a step: only this M
	 * takes from its count, and only a wakeup raises it meanwhile. */
s_sleep:
	atomic {        /* go mutexSleepOnStack: `semasleep(-1)` */
		/* go semasleep: `v := atomic.Load(&mp.waitsema)`, `if atomic.Cas(&mp.waitsema, v, v-1) {`, `futexsleep(&mp.waitsema, 0, ns)` */
		if
		:: waitsema[me] > 0 -> waitsema[me] = 0
		:: else -> infutex[me] = true
		fi;
		goto s_woken
	}
s_woken:
	atomic {        /* go lock2Slow: `spinning, spins = true, 0`, `v = atomic.Loaduintptr(&l.key)`, `if v&mutexLocked != 0 && !heir && failures < mutexStarveAfter {`, `failures++`, `continue` */
		/* go mutexSleepOnStack: `mp.mWaitList.inWait = false`, `return pushed` */
		!infutex[me] ->
		assert(!onStack[me] && spinOwner == me);        /* woken only once taken off, and given the role */
		spinning = true; spins = 0;
		v = key;
#ifndef MUTANT_WOKEN_NO_COUNT
		if
		:: (v & mutexLocked) != 0 && !heir && failures < BYP -> failures++
		:: else -> skip
		fi;
#endif
		slowDecide()
	}

	/* ---- unlock2 ---- */
holding:
	atomic {        /* go unlock2: `old8 := atomic.Xchg8(key8(&l.key), 0)`, `old8&mutexSleeping != 0`, `unlock2Wake(l)` */
		old8 = key & lowByte;
		key = key & ~lowByte;
		assert((old8 & mutexLocked) != 0 && owner == me);
		owner = 0;
		holders--;
		if
		:: (old8 & mutexSleeping) != 0 -> old8 = 0; ret = RET_UNLOCK; goto w_load
		:: else -> old8 = 0; goto unlocked
		fi
	}

w_load:
	wakeCode(me);

unlocked:
#ifdef FOREVER
	goto lock2
#else
	acq++;
	if
	:: (me == 1 && acq < NACQ1) || (me != 1 && acq < NACQ) -> goto lock2
	:: else -> done++
	fi
#endif
}

/* ---- the crash path ----------------------------------------------------- */

#ifdef CRASH
#ifndef MUTANT_CRASH_OBEYS_HEIR
#define CRASHFREE ((key & mutexLocked) == 0)
#else
#define CRASHFREE ((key & (mutexLocked | mutexHeir)) == 0)     /* mutant: the crash path waits for the heir */
#endif
/* A signal handler on M 1, on the crash path: it takes l once (as paniclk,
 * debuglock or deadlock would be taken), at any moment of M 1's life but
 * while M 1 holds l, and M 1 takes no step until the handler returns. Its
 * lock2 and unlock2 are an M's. */
proctype H() {
	int  v;
	byte old8, w, t, i, ret;
	byte me = HID;

	atomic { owner != 1 -> intr = true }    /* model: the signal arrives */
h_lock2:
	atomic {        /* go lock2: `prev := atomic.Xchg8(key8(&l.key), mutexLocked)`, `if prev&mutexLocked == 0 {` */
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked;
		if
		:: (old8 & mutexLocked) == 0 -> owner = HID; old8 = 0; goto h_check
		:: else -> old8 = 0; goto slow
		fi
	}
h_check:
	atomic {        /* go lock2: `if *keyFlags8(&l.key)&(mutexHeir>>8) == 0 {` */
		if
		:: (key & mutexHeir) == 0 -> acquired(); goto h_holding
		:: else -> goto h_backoff
		fi
	}
h_backoff:
	atomic {        /* go lock2: `if atomic.Xchg8(key8(&l.key), 0)&mutexSleeping != 0 {`, `unlock2Wake(l)` */
		old8 = key & lowByte;
		key = key & ~lowByte;
		owner = 0;
		if
		:: (old8 & mutexSleeping) != 0 -> old8 = 0; ret = RET_BACKOFF; goto w_load
		:: else -> old8 = 0; goto slow
		fi
	}
slow:
#ifdef MUTANT_CRASH_NESTED
	/* mutant: the handler waits as an M does: it pushes M 1, whose link
	 * may be in use on this very stack, and sleeps on M 1's semaphore */
	atomic {        /* mutant: the push of the nested wait */
		(key & mutexLocked) != 0 ->
		nextwaitm[1] = mutexMFromKey(key);
		key = (key & flagBits) | mutexPartialM(1) | mutexSleeping;
		onStack[1] = true; nstack++
	}
	atomic { waitsema[1] > 0 -> waitsema[1] = 0 }  /* mutant: the nested sleep */
#endif
	/* The polls that find l held, and the naps between them, are waits:
	 * the load is the one that finds l free. */
h_poll:
	atomic {        /* go mutexCrashWait: `if atomic.Loaduintptr(&l.key)&mutexLocked == 0 {`, `usleep(nap)` */
		/* go lock2Slow: `if mutexOnCrashPath(mp, gp, l) {`, `mutexCrashWait(l)` */
		/* go mutexOnCrashPath: `return mp.dying != 0 || gp == mp.gsignal || mp.mWaitList.inWait ||` */
		CRASHFREE -> goto h_swap
	}
h_swap:
	atomic {        /* go mutexCrashWait: `if atomic.Xchg8(key8(&l.key), mutexLocked|mutexSleeping)&mutexLocked == 0 {`, `return` */
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked | mutexSleeping;
		if
		:: (old8 & mutexLocked) == 0 ->
			owner = HID; old8 = 0;
			holders++;
			assert(holders == 1);   /* mutual exclusion; crash-path entries are outside the bound */
			goto h_holding
		:: else -> old8 = 0; goto h_poll
		fi
	}
h_holding:
	atomic {        /* go unlock2: `old8 := atomic.Xchg8(key8(&l.key), 0)`, `old8&mutexSleeping != 0` */
		old8 = key & lowByte;
		key = key & ~lowByte;
		assert((old8 & mutexLocked) != 0 && owner == HID);
		owner = 0;
		holders--;
		if
		:: (old8 & mutexSleeping) != 0 -> old8 = 0; ret = RET_UNLOCK; goto w_load
		:: else -> old8 = 0; goto unlocked
		fi
	}

w_load:
	wakeCode(HID);

unlocked:
s_load:
	atomic { intr = false; hdone = true }   /* model: the handler returns, and M 1 runs again */
}
#endif

init {
	atomic {        /* model: start the Ms */
#ifdef CRASH
		m1pid = run M(1);
		run H();
#else
		run M(1);
#endif
		run M(2);
#if NM >= 3
		run M(3)
#endif
	}
}

#ifndef FOREVER
ltl terminates { <> (done == NM) }
#else
#if NM >= 3
ltl live { [] ((want[1] -> <> !want[1]) && (want[2] -> <> !want[2]) && (want[3] -> <> !want[3])) }
#else
ltl live { [] ((want[1] -> <> !want[1]) && (want[2] -> <> !want[2])) }
#endif
#endif
