/*
 * spinbit.pml: a Promela model, for the Spin model checker, of the
 * go-spinbit runtime mutex as goroot/src/runtime/lock_spinbit.go implements
 * it (lock2, mutexGiveBack, lock2Slow, mutexPushed, mutexSleepOnStack,
 * mutexPassClaim, mutexLeaveStack, unlock2, unlock2Wake), with the M
 * semaphore it sleeps on from goroot/src/runtime/lock_futexsema.go
 * (semasleep, with and without a timeout, and semawakeup) and the partial
 * M pointers of lock_mkey.go.
 *
 * One process is one M that takes and releases the one mutex, l. Every
 * atomic block in proctype M is one atomic operation of the Go code (an
 * 8-bit swap, a CAS, a load, an Xadd, or a futex call) together with the
 * local computation that follows it up to the next shared access. The
 * comment on each names the Go function and, in backquotes, the Go
 * statements it stands for; model/README.md explains how a test keeps those
 * quotes honest. Local computation is invisible to the other Ms, so folding
 * it into the neighbouring step loses no interleaving.
 *
 * Time is not modelled, only its effects: whenever the Go code compares
 * nanotime() with the deadline of lock2Slow, the model chooses either
 * outcome, and a sleep with a timeout may time out at any point where
 * semasleep can return -1. The clock is monotonic, so once an M finds its
 * deadline passed it stays overdue. (The first comparison of a wait comes
 * just after lock2Slow sets the deadline a whole patience ahead, so the Go
 * code cannot find it passed there; the model lets it, which only adds
 * runs to check.)
 *
 * What is checked, and how (model/README.md has the commands):
 *   - mutual exclusion, the shape and order of the stack of sleepers, who
 *     owns mutexSpinning, mutexStackLocked and mutexClaimed, the sleeping
 *     hint, no M woken twice: assertions and the invariant of proctype
 *     monitor;
 *   - the bound: while an M holds the claim, no other M enters its critical
 *     section; and once an overdue M has pushed itself to wait for the
 *     claim, the Ms that enter before it are at most those that held or
 *     waited for the claim when it pushed, each once (assertions in
 *     acquired() and countBypass());
 *   - no lost wakeup, with -DNOTIMEOUT (sleeps that never time out, so
 *     that a timeout cannot hide a lost wakeup): invalid end states (a
 *     sleeper nobody wakes) and the assertion of proctype final;
 *   - progress, under weak fairness: the LTL formulas "terminates" (every
 *     M finishes its NACQ acquisitions) and, with FOREVER, "claims" (a
 *     claimant eventually acquires); "wakes" does not hold (README.md).
 *
 * -DFOREVER makes every M lock and unlock forever instead of NACQ times, so
 * that the safety checks cover runs of any length. Each -DMUTANT_...
 * changes one marked spot; model/README.md lists them and what the checker
 * reports for each.
 */

/* ---- configuration ---------------------------------------------------- */

#ifndef NM
#define NM 3            /* Ms taking part: 3 or 4 */
#endif
#if NM < 3 || NM > 4
#error "NM must be 3 or 4"
#endif

#ifndef NACQ
#define NACQ 2          /* acquisitions per M, without FOREVER */
#endif
#ifndef NACQ1
#define NACQ1 NACQ      /* acquisitions of M 1, to let one M go on longer */
#endif

/* mutexActiveSpins+mutexPassiveSpins: how often the spinner polls the word
 * before it sleeps. Go's is large; what matters here is that it is finite. */
#ifndef SPINS
#define SPINS 1
#endif

/* ---- the key word, with the Go constants' values ----------------------- */

#define mutexLocked      1
#define mutexSleeping    2
#define mutexSpinning    256
#define mutexStackLocked 512
#define mutexClaimed     1024
#define mutexMBits       11
#define lowByte          255   /* what key8 addresses: the swaps write all of it */
#define flagBits         2047  /* ^mutexMMask */
#define unusedBits       252   /* bits 2-7 */

/* Ms are numbered 1..NM, and 0 is nil. M m is kept in the key word as
 * m<<mutexMBits, standing for its partial pointer (lock_mkey.go). */
#define mutexPartialM(m) ((m) << mutexMBits)
#define mutexMFromKey(x) ((x) >> mutexMBits)
#define withSleepHint(x) (mutexMFromKey(x) != 0 -> ((x) | mutexSleeping) : (x))

int  key;                       /* l.key */
byte nextwaitm[NM + 1];         /* m.nextwaitm; [0], nil's, stays 0 */
byte waitsema[NM + 1];          /* m.waitsema, the futex word of an M's semaphore */
bool infutex[NM + 1];           /* the kernel: the M waits in futexsleep */
bool spinning[NM + 1];          /* lock2Slow's local spinning, global for the monitor */
bool overdueMark[NM + 1];       /* m.mutexOverdue: on the stack to wait for the claim */

/* ---- ghost state, read only by the checks ------------------------------ */

byte holders;                   /* Ms between acquiring l and releasing it */
byte stackOwner;                /* the M that owns mutexStackLocked, or 0 */
byte claimant;                  /* the M that holds the claim (its claim CAS succeeded, or a claimant passed it the claim) and has not taken l since, or 0 */
byte passer;                    /* the M that took l as claimant and has not yet passed the claim on or cleared it, or 0 */
bool waiting[NM + 1];           /* M pushed itself to wait for the claim, and has not entered since */
byte allowed[NM + 1];           /* for a waiting M: how many entries by others may come before its own */
byte bypass[NM + 1];            /* for a waiting M: entries by others since it pushed itself */
byte phase[NM + 1];             /* 0 awake, 1 on the stack, 2 taken off by a waker but not yet awake */
byte rank[NM + 1];              /* M on the stack: how many on it went to sleep before it */
byte nsleep;                    /* Ms on the stack */
#ifndef FOREVER
byte done;                      /* Ms that finished their NACQ acquisitions */
#endif

/* me enters its critical section: count it against every M that waits
 * for the claim. */
inline countBypass(i) {
	if
	:: i != me && waiting[i] ->
		bypass[i]++;
		assert(bypass[i] <= allowed[i]) /* the bound of the wait for the claim */
	:: else
	fi
}

inline acquired() {
	holders++;
	assert(holders == 1);           /* mutual exclusion */
	assert(claimant == 0 || claimant == me); /* the bound: a claim stands, and l goes to its claimant */
	countBypass(1); countBypass(2); countBypass(3);
#if NM >= 4
	countBypass(4);
#endif
	waiting[me] = false; allowed[me] = 0; bypass[me] = 0
}

/* me pushed itself to wait for the claim: the Ms that may enter before it
 * are the claimant, if it has not taken l yet, and the Ms that wait for the
 * claim already, each once. */
inline countAhead(i) {
	if
	:: i != me && (waiting[i] || claimant == i) -> allowed[me]++
	:: else
	fi
}

inline ghostWait() {
	waiting[me] = true; bypass[me] = 0; allowed[me] = 0;
	countAhead(1); countAhead(2); countAhead(3);
#if NM >= 4
	countAhead(4);
#endif
}

/* The push CAS succeeded: me is on the stack. */
inline ghostPush(m) {
	assert(phase[m] == 0);          /* not on the stack twice */
	phase[m] = 1;
	rank[m] = nsleep;
	nsleep++
}

inline rankDown(m, i) {
	if
	:: phase[i] == 1 && rank[i] > rank[m] -> rank[i]--
	:: else
	fi
}

/* m leaves the stack, and goes to phase to (2 when a waker took it off, 0
 * when it took itself off). Every M on it that went to sleep after m moves
 * down one rank. */
inline ghostOff(m, to) {
	assert(m != 0 && phase[m] == 1);/* it was on the stack: nobody is taken off twice */
	phase[m] = to;
	rankDown(m, 1); rankDown(m, 2); rankDown(m, 3);
#if NM >= 4
	rankDown(m, 4);
#endif
	rank[m] = 0;
	nsleep--
}

/* The CAS of unlock2Wake that takes the top off: m went to sleep after
 * every other M on the stack. */
inline ghostPopTop(m) {
	assert(m != 0 && rank[m] == nsleep - 1);        /* the stack is in the order its Ms slept */
	ghostOff(m, 2)
}

/* The stack as the key word and the links show it, from the top down. */
#define K0 mutexMFromKey(key)
#define K1 nextwaitm[K0]
#define K2 nextwaitm[K1]
#define K3 nextwaitm[K2]
#define K4 nextwaitm[K3]
#if NM >= 4
#define STACKOK (K4 == 0 && (K1 == 0 || K1 != K0) && (K2 == 0 || (K2 != K0 && K2 != K1)) && \
	(K3 == 0 || (K3 != K0 && K3 != K1 && K3 != K2)))
#define LISTED(m) (K0 == (m) || K1 == (m) || K2 == (m) || K3 == (m))
#define MEMBERS (((phase[1] == 1) == LISTED(1)) && ((phase[2] == 1) == LISTED(2)) && \
	((phase[3] == 1) == LISTED(3)) && ((phase[4] == 1) == LISTED(4)))
#define NSPINNERS (spinning[1] + spinning[2] + spinning[3] + spinning[4])
#define MARKSOK (MARKOK(1) && MARKOK(2) && MARKOK(3) && MARKOK(4))
#define NOMARKS (!overdueMark[1] && !overdueMark[2] && !overdueMark[3] && !overdueMark[4])
#define ALLIDLE (phase[1] + phase[2] + phase[3] + phase[4] + \
	waitsema[1] + waitsema[2] + waitsema[3] + waitsema[4] == 0)
#else
#define STACKOK (K3 == 0 && (K1 == 0 || K1 != K0) && (K2 == 0 || (K2 != K0 && K2 != K1)))
#define LISTED(m) (K0 == (m) || K1 == (m) || K2 == (m))
#define MEMBERS (((phase[1] == 1) == LISTED(1)) && ((phase[2] == 1) == LISTED(2)) && \
	((phase[3] == 1) == LISTED(3)))
#define NSPINNERS (spinning[1] + spinning[2] + spinning[3])
#define MARKSOK (MARKOK(1) && MARKOK(2) && MARKOK(3))
#define NOMARKS (!overdueMark[1] && !overdueMark[2] && !overdueMark[3])
#define ALLIDLE (phase[1] + phase[2] + phase[3] + waitsema[1] + waitsema[2] + waitsema[3] == 0)
#endif

/* True in every state:
 *   - at most one M holds l;
 *   - the stack has no cycle and no M twice, and holds exactly the Ms that
 *     went to sleep and were not taken off: none lost, none extra;
 *   - mutexSpinning is set exactly when one M owns it, and likewise
 *     mutexStackLocked and mutexClaimed (owned by the claimant, or by the
 *     M that took l as claimant until it passes the claim on);
 *   - an M marked overdue is on the stack only while l is claimed;
 *   - bits 2-7, which every swap of the low byte writes, stay zero;
 *   - the hint is set only while l is held or claimed and Ms sleep: every
 *     step that sets it keeps or sets mutexLocked or mutexClaimed and
 *     checks the stack, and the release swap and the CASes that take an M
 *     off clear it.
 * Each is asserted on its own, so that pan names the one that failed. */
#define SPINOK (NSPINNERS <= 1 && ((key & mutexSpinning) != 0) == (NSPINNERS == 1))
#define OWNEROK (((key & mutexStackLocked) != 0) == (stackOwner != 0))
#ifdef MUTANT_WAKE_NOT_CLAIM
/* That mutant breaks this by design; it is there to show that the bound's
 * own assertions catch it. */
#define CLAIMOK true
#else
#define CLAIMOK (((key & mutexClaimed) != 0) == (claimant != 0 || passer != 0) && (claimant == 0 || passer == 0))
#endif
/* An M waits on the stack for the claim only while l is claimed. */
#define MARKOK(m) (!overdueMark[m] || phase[m] != 1 || (key & mutexClaimed) != 0)
#define HINTOK ((key & mutexSleeping) == 0 || \
	((key & (mutexLocked | mutexClaimed)) != 0 && mutexMFromKey(key) != 0))
#define INVARIANT (holders <= 1 && nextwaitm[0] == 0 && STACKOK && MEMBERS && SPINOK && OWNEROK && \
	CLAIMOK && MARKSOK && (key & unusedBits) == 0 && HINTOK)

active proctype monitor() {
end:	atomic {        /* model: the invariant */
		!(INVARIANT) ->
		assert(holders <= 1);
		assert(nextwaitm[0] == 0 && STACKOK);
		assert(MEMBERS);
		assert(SPINOK);
		assert(OWNEROK);
		assert(CLAIMOK);
		assert(MARKSOK);
		assert((key & unusedBits) == 0);
		assert(HINTOK)
	}
}

#ifndef FOREVER
/* Once every M is done: l is free and unclaimed, its hint clear, nobody
 * spins, owns the stack or sleeps, and no semaphore holds a wakeup nobody
 * took. */
active proctype final() {
end:	atomic { done == NM -> assert(key == 0 && ALLIDLE && NOMARKS && passer == 0) }   /* model: the end */
}
#endif

/* ---- the M ------------------------------------------------------------- */

/* After unlock2 returns: clear the dead locals, so that states that differ
 * only in them are one state, and lock again or finish. */
inline unlocked() {
	v = 0; next = 0; old8 = 0; wakee = 0;
#ifdef FOREVER
	goto lock2
#else
	acq++;
	if
	:: acq == (me == 1 -> NACQ1 : NACQ) -> done++; goto finished
	:: else -> goto lock2
	fi
#endif
}

/* semawakeup has returned: to mutexPassClaim, whose M holds l and enters
 * its critical section, or to unlock2Wake, after which unlock2 returns. */
inline woken() {
	if
	:: passing -> passing = false; goto holding
	:: else -> unlocked()
	fi
}

/* lock2Slow breaks out of its loop with l taken: clear its locals. */
inline slowDone() {
#ifdef MUTANT_CLAIM_KEPT
	/* mutant: the claim is the M's, not the wait's (as the per-M count of
	 * earlier patches was), and outlives the wait that made it */
	v = 0; next = 0; spins = 0; overdue = false; spinning[me] = false
#else
	v = 0; next = 0; spins = 0; overdue = false; claimed = false; spinning[me] = false
#endif
}

/* An overdue M that is not the claimant: claim l, or push itself to wait
 * for the claim while another M holds it. spins is dead from here on: only
 * the spinner's test reads it, and an overdue M never reaches that test
 * again. */
inline overdueDecide() {
	spins = 0;
	if
#ifdef MUTANT_CLAIM_TWICE
	/* mutant: claim l even while another M holds the claim */
	:: true -> goto s_claim
#else
	:: (v & mutexClaimed) == 0 -> goto s_claim
	:: else -> goto s_queue
#endif
	fi
}

/* The top of lock2Slow's loop, after each load of v.
 * go lock2Slow: `if claimed`, `if v&mutexLocked == 0`, `if v&(mutexLocked|mutexClaimed) == 0`, `if overdue`,
 * `if v&mutexClaimed == 0`, `if !spinning && v&mutexSpinning == 0`, `if spinning && spins < mutexActiveSpins+mutexPassiveSpins`,
 * `now := nanotime()`, `if deadline == 0`, `deadline = now + patience`, `rest := deadline - now`, `if rest <= 0`, `overdue = true`, `continue` */
inline slowDecide() {
	if
	:: claimed ->
		if
		:: (v & mutexLocked) == 0 -> goto s_ctake
		:: else -> goto s_opoll
		fi
#ifdef MUTANT_SLOW_IGNORES_CLAIM
	/* mutant: take a free mutex even while another M claims it */
	:: !claimed && (v & mutexLocked) == 0 -> goto s_acquire
	:: !claimed && (v & mutexLocked) != 0 ->
#else
	:: !claimed && (v & (mutexLocked | mutexClaimed)) == 0 -> goto s_acquire
	:: !claimed && (v & (mutexLocked | mutexClaimed)) != 0 ->
#endif
		if
		:: overdue -> overdueDecide()
		:: !overdue && !spinning[me] && (v & mutexSpinning) == 0 -> goto s_spin
		:: !overdue && spinning[me] && spins < SPINS -> goto s_poll
		:: !overdue && !(!spinning[me] && (v & mutexSpinning) == 0) && !(spinning[me] && spins < SPINS) ->
			/* the deadline, read before the push */
			if
			:: true -> goto s_push
			:: true -> overdue = true; overdueDecide()
			fi
		fi
	fi
}

/* The top of unlock2Wake's loop, after each load of v: return, leaving the
 * waking and the hint to an M that owes them, or take the stack (w_take).
 * go unlock2Wake: `if v&mutexMMask == 0`, `return // nobody sleeps`,
 * `if v&(mutexStackLocked|mutexSpinning|mutexClaimed) != 0`, `return` */
inline wakeDecide() {
	if
	:: mutexMFromKey(v) == 0 -> unlocked()
#ifdef MUTANT_LEAVE_HOLDER
	/* mutant: leave the waking to an M that took l after the swap,
	 * although that M owes no hint */
	:: mutexMFromKey(v) != 0 && (v & (mutexStackLocked | mutexSpinning | mutexClaimed | mutexLocked)) != 0 -> unlocked()
	:: mutexMFromKey(v) != 0 && (v & (mutexStackLocked | mutexSpinning | mutexClaimed | mutexLocked)) == 0 -> goto w_take
#else
	:: mutexMFromKey(v) != 0 && (v & (mutexStackLocked | mutexSpinning | mutexClaimed)) != 0 -> unlocked()
	:: mutexMFromKey(v) != 0 && (v & (mutexStackLocked | mutexSpinning | mutexClaimed)) == 0 -> goto w_take
#endif
	fi
}

/* The first loop of mutexLeaveStack, after each load of v: wait while
 * another M owns the stack, or try to take it.
 * go mutexLeaveStack: `for v&mutexStackLocked != 0 || !atomic.Casuintptr(&l.key, v, v|mutexStackLocked)` */
inline leaveDecide() {
#ifdef MUTANT_LEAVE_NO_LOCK
	/* mutant: do not take mutexStackLocked; walk and unlink from the
	 * word as loaded */
	goto l_walk
#else
	if
	:: (v & mutexStackLocked) != 0 -> goto l_yield
	:: else -> goto l_take
	fi
#endif
}

/* The first loop of mutexPassClaim, after each load of v: clear the claim
 * if nobody sleeps, wait while another M owns the stack, or try to take it.
 * go mutexPassClaim: `if v&mutexMMask == 0`, `} else if v&mutexStackLocked != 0 {` */
inline passDecide() {
	if
	:: mutexMFromKey(v) == 0 -> goto p_none
	:: mutexMFromKey(v) != 0 && (v & mutexStackLocked) != 0 -> goto p_yield
	:: mutexMFromKey(v) != 0 && (v & mutexStackLocked) == 0 -> goto p_take
	fi
}

/* The top of unlock2Wake's second loop, after each load of v: give the
 * stack up if l was claimed since this M took it (Ms that wait for the
 * claim may be on top), or try to take the top off (w_pop).
 * go unlock2Wake: `if v&mutexClaimed != 0` */
inline popDecide() {
#ifdef MUTANT_WAKE_IGNORES_CLAIM
	/* mutant: take the top off even if l was claimed since this M took
	 * the stack (four Ms are needed to reach it, one of them locking
	 * twice) */
	goto w_pop
#else
	if
	:: (v & mutexClaimed) != 0 -> goto w_rel
	:: else -> goto w_pop
	fi
#endif
}

/* mutexLeaveStack gives the stack up. */
inline giveUpStack() {
#ifdef MUTANT_LEAVE_NO_LOCK
	skip            /* mutant: this M never took the stack */
#else
	stackOwner = 0
#endif
}

proctype M(byte me) {
	int  v, next;           /* the v and next of lock2Slow, mutexGiveBack, mutexLeaveStack and unlock2Wake */
	byte old8;              /* lock2's prev and unlock2's old8 */
	byte spins;             /* lock2Slow */
	bool overdue, claimed;  /* lock2Slow (its spinning is the global spinning[me]) */
	byte above;             /* mutexLeaveStack */
	byte p, i;              /* mutexLeaveStack's walk, and its length */
	byte wakee;             /* semawakeup's mp */
	bool passing;           /* semawakeup called by mutexPassClaim, so this M holds l */
	byte sv;                /* semasleep's v */
	bool leaving;           /* in mutexLeaveStack's semasleep(-1), which has no timeout */
	bool queued;            /* in lock2Slow's semasleep(-1), waiting for the claim */
#ifndef FOREVER
	byte acq;               /* acquisitions done */
#endif

	/* ---- lock2 ---- */
lock2:
	atomic {        /* go lock2: `prev := atomic.Xchg8(key8(&l.key), mutexLocked)`, `if prev&mutexLocked == 0` */
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked;
		if
		:: (old8 & mutexLocked) == 0 ->
			/* the swap that takes a free mutex clears no hint
			 * unless the mutex is claimed (HINTOK) */
			assert((old8 & mutexSleeping) == 0 || (key & mutexClaimed) != 0);
			old8 = 0;
#ifdef MUTANT_NO_CLAIM_CHECK
			/* mutant: enter the critical section without looking
			 * for a claim */
			acquired();
			goto holding
#else
			goto l2_claim
#endif
		:: else -> old8 = 0; goto slow
		fi
	}
l2_claim:
	atomic {        /* go lock2: `if *keyFlags8(&l.key)&(mutexClaimed>>8) == 0`, `return`, `mutexGiveBack(l)` (a load of the byte that holds mutexClaimed) */
		if
		:: (key & mutexClaimed) == 0 -> acquired(); goto holding
		:: else
		fi
	}

	/* ---- mutexGiveBack; then lock2Slow ---- */
	atomic {        /* go mutexGiveBack: `v := atomic.Loaduintptr(&l.key)` */
		v = key
	}
g_cas:
	atomic {        /* go mutexGiveBack: `for !atomic.Casuintptr(&l.key, v, withSleepHint(v&^mutexLocked))`, `v = atomic.Loaduintptr(&l.key)` */
		if
		:: key == v ->
			key = withSleepHint(v & ~mutexLocked);
			v = 0;
			goto slow
		:: else -> v = key; goto g_cas
		fi
	}

	/* ---- lock2Slow ---- */
slow:
	atomic {        /* go lock2Slow: `v := atomic.Loaduintptr(&l.key)`, `if v&(mutexLocked|mutexSpinning|mutexClaimed|mutexMMask) == mutexLocked && ncpu > 1 && gomaxprocs <= ncpu` */
		v = key;
		if
		:: (v & (mutexLocked | mutexSpinning | mutexClaimed)) == mutexLocked && mutexMFromKey(v) == 0 -> goto s_prepoll
		:: true -> slowDecide()  /* also ncpu == 1 or gomaxprocs > ncpu */
		fi
	}
s_prepoll:
	atomic {        /* go lock2Slow: `mutexPoll(0)`, `v = atomic.Loaduintptr(&l.key)` (light contention) */
		v = key;
		slowDecide()
	}
s_ctake:
	atomic {        /* go lock2Slow: `if atomic.Casuintptr(&l.key, v, withSleepHint(v|mutexLocked))`, `mutexPassClaim(l)`, `break`, `v = atomic.Loaduintptr(&l.key)` */
		if
		:: key == v ->
#ifdef MUTANT_CLAIM_CLEARED
			/* mutant: clear the claim in the taking CAS, as before the
			 * claim was passed on, and pass it to nobody */
			key = withSleepHint((v & ~mutexClaimed) | mutexLocked);
			acquired();
			claimant = 0;
			slowDone();
			goto holding
#else
			key = withSleepHint(v | mutexLocked);
			acquired();
			claimant = 0; passer = me;
			slowDone();
			goto p_load
#endif
		:: else -> v = key; slowDecide()
		fi
	}
s_acquire:
	atomic {        /* go lock2Slow: `next := v | mutexLocked`, `next &^= mutexSpinning`, `if atomic.Casuintptr(&l.key, v, withSleepHint(next))`, `break`, `v = atomic.Loaduintptr(&l.key)` */
		next = v | mutexLocked;
		if :: spinning[me] -> next = next & ~mutexSpinning :: else fi;
		if
		:: key == v ->
#ifdef MUTANT_ACQUIRE_NO_HINT
			/* mutant: take l without setting the hint, so an M woken
			 * from the stack never pays back the hint it owes */
			key = next;
#else
			key = withSleepHint(next);
#endif
			acquired();
			slowDone();
			goto holding
		:: else -> next = 0; v = key; slowDecide()
		fi
	}
s_claim:
	atomic {        /* go lock2Slow: `next := v | mutexClaimed`, `next &^= mutexSpinning`, `if atomic.Casuintptr(&l.key, v, withSleepHint(next))`, `claimed, spinning, spins = true, false, 0`, `v = atomic.Loaduintptr(&l.key)` */
		next = v | mutexClaimed;
		if :: spinning[me] -> next = next & ~mutexSpinning :: else fi;
		if
		:: key == v ->
			assert(claimant == 0 && passer == 0);   /* one claimant at a time */
#ifdef MUTANT_WAKE_NOT_CLAIM
			/* mutant: the overdue M is owed the next acquisition
			 * (claimant) but, like the forced wakeup of earlier
			 * patches, sets nothing that keeps others out: it
			 * competes with them */
			key = withSleepHint(next & ~mutexClaimed);
#else
			key = withSleepHint(next);
#endif
			claimant = me;
			claimed = true; spinning[me] = false; spins = 0;
			next = 0;
			goto s_load
		:: else -> next = 0; v = key; slowDecide()
		fi
	}
s_spin:
	atomic {        /* go lock2Slow: `if atomic.Casuintptr(&l.key, v, withSleepHint(v|mutexSpinning))`, `spinning = true`, `spins = 0`, `v = atomic.Loaduintptr(&l.key)` */
		if
		:: key == v -> key = withSleepHint(v | mutexSpinning); spinning[me] = true; spins = 0; goto s_load
		:: else -> v = key; slowDecide()
		fi
	}
s_poll:
	atomic {        /* go lock2Slow: `mutexPoll(spins)`, `spins++`, `v = atomic.Loaduintptr(&l.key)` (the spinner) */
		spins++;
		v = key;
		slowDecide()
	}
s_opoll:
	atomic {        /* go lock2Slow: `mutexPoll(spins)`, `spins++`, `v = atomic.Loaduintptr(&l.key)` (the claimant; spins is dead, see overdueDecide) */
		v = key;
		slowDecide()
	}
s_load:
	atomic {        /* go lock2Slow: `v = atomic.Loaduintptr(&l.key)`, `continue` (after the spin or claim CAS succeeded) */
		v = key;
		slowDecide()
	}
s_push:
#ifdef MUTANT_LINK_LATE
	/* mutant: publish the M first and write its link afterwards; until
	 * then the link holds what the M's last sleep left there */
	atomic {        /* mutant: the push CAS before the link store */
		next = (v & flagBits) | mutexPartialM(me) | mutexSleeping;
		if :: spinning[me] -> next = next & ~mutexSpinning :: else fi;
		if
		:: key == v ->
			key = next;
			ghostPush(me);
			spinning[me] = false; spins = 0; next = 0;
			goto s_link
		:: else -> next = 0; goto s_load
		fi
	}
s_link:
	atomic {        /* mutant: the link store after the push CAS */
		nextwaitm[me] = mutexMFromKey(v);
		v = 0;
		goto s_sleep
	}
#else
	atomic {        /* go lock2Slow: `if mutexSleepOnStack(l, v, spinning, rest)`, `spinning = false`, `v = atomic.Loaduintptr(&l.key)`
			 * The link is this M's own, and nobody reads it before the CAS
			 * publishes the M, so the plain store shares the CAS's step. */
		/* go mutexSleepOnStack: `mp.mutexOverdue = ns < 0`, `pushed := atomic.Casuintptr(&l.key, v, mutexPushed(v, mp, giveUpSpin))`, `mp.mutexOverdue = false` (the mark, false for a sleep) */
		/* go mutexPushed: `mp.nextwaitm.set(mutexMFromKey(v))`, `next := v&^mutexMMask | mutexPartialM(mp) | mutexSleeping`, `next &^= mutexSpinning` */
		nextwaitm[me] = mutexMFromKey(v);
		next = (v & flagBits) | mutexPartialM(me) | mutexSleeping;
#ifndef MUTANT_SPIN_LATE
		if :: spinning[me] -> next = next & ~mutexSpinning :: else fi;
#endif
		if
#ifdef MUTANT_PUSH_FREE
		/* mutant: the push CAS does not require l to be held or
		 * claimed: it ignores mutexLocked */
		:: (key & ~mutexLocked) == (v & ~mutexLocked) ->
			key = (next & ~mutexLocked) | (key & mutexLocked);
#else
		:: key == v ->
			key = next;
#endif
			ghostPush(me);
			next = 0; spins = 0;
#ifdef MUTANT_SPIN_LATE
			goto s_unspin
#else
			spinning[me] = false;
			v = 0;
			goto s_sleep
#endif
		:: else -> next = 0; v = key; slowDecide()
		fi
	}
#endif
#ifdef MUTANT_SPIN_LATE
	/* mutant: give up mutexSpinning with a CAS of its own after the push,
	 * not in the push */
s_unspin:
	atomic {        /* mutant: load for the late unspin CAS */
		if
		:: !spinning[me] -> v = 0; goto s_sleep
		:: else -> v = key
		fi
	}
	atomic {        /* mutant: the late unspin CAS */
		if
		:: key == v -> key = v & ~mutexSpinning; spinning[me] = false; v = 0; goto s_sleep
		:: else -> goto s_unspin
		fi
	}
#endif

s_queue:
	atomic {        /* go lock2Slow: `if mutexSleepOnStack(l, v, spinning, -1)`, `v = atomic.Loaduintptr(&l.key)`
			 * (the push of an overdue M that waits for the claim: the link and
			 * the mark are this M's own, and nobody reads them before the CAS
			 * publishes the M, so their stores, and the mark's clearing after
			 * a failed CAS, share the CAS's step) */
		/* go mutexSleepOnStack: `mp.mutexOverdue = ns < 0`, `pushed := atomic.Casuintptr(&l.key, v, mutexPushed(v, mp, giveUpSpin))`, `mp.mutexOverdue = false` */
		/* go mutexPushed: `mp.nextwaitm.set(mutexMFromKey(v))`, `next := v&^mutexMMask | mutexPartialM(mp) | mutexSleeping`, `next &^= mutexSpinning` */
		nextwaitm[me] = mutexMFromKey(v);
#ifdef MUTANT_MARK_KEPT
		/* mutant: the mark stays set after a failed CAS, and on the M's
		 * later sleeps */
		overdueMark[me] = true;
#endif
		next = (v & flagBits) | mutexPartialM(me) | mutexSleeping;
		if :: spinning[me] -> next = next & ~mutexSpinning :: else fi;
		if
		:: key == v ->
			key = next;
			overdueMark[me] = true;
			ghostPush(me);
			ghostWait();
			next = 0;
			spinning[me] = false;
			queued = true;
			v = 0;
			goto s_sleep
		:: else -> next = 0; v = key; slowDecide()
		fi
	}

	/* ---- semasleep (lock_futexsema.go): semasleep(ns) from
	 * mutexSleepOnStack, called by lock2Slow with rest for a sleep and
	 * with -1 for its wait for the claim (queued), or semasleep(-1) from
	 * mutexLeaveStack (leaving). Returning 0, they go on to s_woken, or
	 * q_woken when queued; returning -1, semasleep(rest) goes on to
	 * mutexLeaveStack. ---- */
s_sleep:
	atomic {        /* go semasleep: `v := atomic.Load(&mp.waitsema)`, `if v > 0`, `ns = deadline - nanotime()`, `if ns <= 0`, `return -1` */
		sv = waitsema[me];
		if
		:: sv > 0 -> goto s_semcas
		:: sv == 0 -> goto s_futex
#ifndef NOTIMEOUT
		/* The deadline has passed: semasleep's deadline is no earlier
		 * than lock2Slow's, so lock2Slow's test after mutexLeaveStack,
		 * `overdue = nanotime() >= deadline`, will find it passed; the
		 * model sets overdue here, where nothing reads it until then. */
		:: sv == 0 && !leaving && !queued -> overdue = true; goto l_load
#endif
		fi
	}
s_semcas:
	atomic {        /* go semasleep: `if atomic.Cas(&mp.waitsema, v, v-1)`, `return 0`, `continue` */
		if
		:: waitsema[me] == sv ->
			waitsema[me] = sv - 1; sv = 0;
			assert(phase[me] == 2);         /* woken only after being taken off */
			phase[me] = 0;
			if
			:: queued -> goto q_woken
			:: else -> goto s_woken
			fi
		:: else -> sv = 0; goto s_sleep
		fi
	}
s_futex:
	atomic {        /* go semasleep: `futexsleep(&mp.waitsema, 0, ns)` (the kernel compares and sleeps in one step) */
		if
#ifdef MUTANT_SEMA_NOCOUNT
		/* mutant: sleep without looking at the count, so a wakeup
		 * given before the sleep is lost */
		:: true -> infutex[me] = true
#else
		:: waitsema[me] == 0 -> infutex[me] = true
		:: else -> goto s_sleep
#endif
		fi
	}
	atomic {        /* model: asleep in the kernel until futexwakeup */
		!infutex[me] -> goto s_sleep
	}
q_woken:
	atomic {        /* go lock2Slow: `claimed, spinning, spins = true, false, 0`, `v = atomic.Loaduintptr(&l.key)` (after the wait for the claim, whose end in mutexSleepOnStack clears the mark) */
		/* go mutexSleepOnStack: `mp.mutexOverdue = false` */
		assert(claimant == me);         /* woken only by the claimant that passed it the claim */
		queued = false;
		overdueMark[me] = false;
		claimed = true;
		v = key;
		slowDecide()
	}
s_woken:
	atomic {        /* go lock2Slow: `overdue = nanotime() >= deadline`, `v = atomic.Loaduintptr(&l.key)` (after semasleep, or mutexLeaveStack) */
		assert(claimant != me);         /* a sleeper that did not wait for the claim is never passed it */
		leaving = false;
		if
		:: overdue -> skip
		:: !overdue -> overdue = true
		:: !overdue -> skip
		fi;
		v = key;
		slowDecide()
	}

	/* ---- mutexLeaveStack: semasleep(rest) returned -1 ---- */
l_load:
	atomic {        /* go mutexLeaveStack: `v := atomic.Loaduintptr(&l.key)` */
		sv = 0;
		v = key;
		leaveDecide()
	}
l_yield:
	atomic {        /* go mutexLeaveStack: `osyield()`, `v = atomic.Loaduintptr(&l.key)` (the owner holds the stack) */
		v = key;
		leaveDecide()
	}
l_take:
	atomic {        /* go mutexLeaveStack: `for v&mutexStackLocked != 0 || !atomic.Casuintptr(&l.key, v, v|mutexStackLocked)`, `v |= mutexStackLocked`, `v = atomic.Loaduintptr(&l.key)` */
		if
		:: key == v -> key = v | mutexStackLocked; stackOwner = me; v = v | mutexStackLocked; goto l_walk
		:: else -> v = key; leaveDecide()
		fi
	}
l_walk:
	atomic {        /* go mutexLeaveStack: `for p := mutexMFromKey(v); p != nil; p = p.nextwaitm.ptr()`, `if p == mp`, `found = true`, `above = p`, `if !found`, `above.nextwaitm = mp.nextwaitm`
			 * The links below the top in v change only by the hand of the
			 * stack's owner, this M, so the walk and the store share a step. */
		above = 0; p = mutexMFromKey(v); i = 0;
		do
		:: p == 0 || p == me -> break
		:: else -> assert(i < NM); i++; above = p; p = nextwaitm[p]
		od;
		if
		:: p == 0 -> above = 0; i = 0; goto l_nfcas
		:: else -> p = 0; i = 0
		fi;
		if
		:: above != 0 ->
			nextwaitm[above] = nextwaitm[me];
			ghostOff(me, 0)
		:: else
		fi
	}
l_cas:
	atomic {        /* go mutexLeaveStack: `next := v &^ (mutexStackLocked | mutexSleeping)`, `if above == nil`, `next = next&^mutexMMask | mutexPartialM(mp.nextwaitm.ptr())`, `if atomic.Casuintptr(&l.key, v, next)`, `mp.nextwaitm = 0`, `return`, `v = atomic.Loaduintptr(&l.key)`, `if above != nil` */
		next = v & ~(mutexStackLocked | mutexSleeping);
		if :: above == 0 -> next = (next & flagBits) | mutexPartialM(nextwaitm[me]) :: else fi;
		if
		:: key == v ->
			key = next;
			giveUpStack();
			if :: above == 0 -> ghostOff(me, 0) :: else fi;
			nextwaitm[me] = 0;
			next = 0; above = 0;
			goto s_woken
		:: else -> next = 0; v = key
		fi;
		if
#ifdef MUTANT_LEAVE_TOP_RETRY
		/* mutant: after a failed CAS, only redo the release, even if
		 * this M was the top and is still on the stack */
		:: true -> goto l_rel
#else
		:: above != 0 -> goto l_rel
		:: else -> goto l_walk
#endif
		fi
	}
l_rel:
	atomic {        /* go mutexLeaveStack: `for !atomic.Casuintptr(&l.key, v, v&^(mutexStackLocked|mutexSleeping))`, `mp.nextwaitm = 0`, `return`, `v = atomic.Loaduintptr(&l.key)` */
		if
		:: key == v ->
			key = v & ~(mutexStackLocked | mutexSleeping);
			giveUpStack();
#ifdef MUTANT_LEAVE_TOP_RETRY
			if :: above == 0 -> ghostOff(me, 0) :: else fi;
#endif
			nextwaitm[me] = 0;
			above = 0;
			goto s_woken
		:: else -> v = key; goto l_rel
		fi
	}
l_nfcas:
	atomic {        /* go mutexLeaveStack: `for !atomic.Casuintptr(&l.key, v, v&^mutexStackLocked)`, `v = atomic.Loaduintptr(&l.key)`, `semasleep(-1)` (not found: a waker took this M off) */
		if
		:: key == v ->
			key = v & ~mutexStackLocked;
			giveUpStack();
			v = 0;
#ifdef MUTANT_LEAVE_NO_WAIT
			/* mutant: return without taking the wakeup */
			goto s_woken
#else
			leaving = true;
			goto s_sleep
#endif
		:: else -> v = key; goto l_nfcas
		fi
	}

	/* ---- mutexPassClaim: this M took l as claimant, leaving mutexClaimed
	 * set; then it enters its critical section (holding) ---- */
p_load:
	atomic {        /* go mutexPassClaim: `v := atomic.Loaduintptr(&l.key)` */
		v = key;
		passDecide()
	}
p_yield:
	atomic {        /* go mutexPassClaim: `osyield()`, `v = atomic.Loaduintptr(&l.key)` (the owner holds the stack) */
		v = key;
		passDecide()
	}
p_none:
	atomic {        /* go mutexPassClaim: `if atomic.Casuintptr(&l.key, v, v&^mutexClaimed)`, `return`, `v = atomic.Loaduintptr(&l.key)` (nobody sleeps) */
		if
		:: key == v -> key = v & ~mutexClaimed; passer = 0; v = 0; goto holding
		:: else -> v = key; passDecide()
		fi
	}
p_take:
	atomic {        /* go mutexPassClaim: `} else if atomic.Casuintptr(&l.key, v, v|mutexStackLocked) {`, `v |= mutexStackLocked`, `v = atomic.Loaduintptr(&l.key)` */
		if
		:: key == v -> key = v | mutexStackLocked; stackOwner = me; v = v | mutexStackLocked; goto p_walk
		:: else -> v = key; passDecide()
		fi
	}
p_walk:
	atomic {        /* go mutexPassClaim: `for p := mutexMFromKey(v); p != nil; p = p.nextwaitm.ptr()`, `if p.mutexOverdue`, `oldest, oldestAbove = p, above`, `above = p`, `if oldest == nil`, `if oldestAbove != nil`, `oldestAbove.nextwaitm = oldest.nextwaitm`
			 * The links below the top in v change only by the hand of the
			 * stack's owner, this M, and the marks of Ms on the stack only
			 * by their own hand after they are taken off it, so the walk and
			 * the store share a step. wakee is oldest, above oldestAbove. */
		wakee = 0; above = 0; i = 0; p = mutexMFromKey(v); sv = 0;
		do
		:: p == 0 -> break
		:: else ->
			assert(i < NM); i++;
#ifdef MUTANT_PASS_NEWEST
			/* mutant: pass the claim to the overdue M highest on the
			 * stack, the last to push itself */
			if :: overdueMark[p] && wakee == 0 -> wakee = p; above = sv :: else fi;
#else
			if :: overdueMark[p] -> wakee = p; above = sv :: else fi;
#endif
			sv = p; p = nextwaitm[p]
		od;
		i = 0; sv = 0;
		if
		:: wakee == 0 -> goto p_clear
		:: wakee != 0 && above != 0 ->
			nextwaitm[above] = nextwaitm[wakee];
			ghostOff(wakee, 2)
		:: else
		fi
	}
p_cas:
	atomic {        /* go mutexPassClaim: `next := v &^ (mutexStackLocked | mutexSleeping)`, `if oldestAbove == nil`, `next = next&^mutexMMask | mutexPartialM(oldest.nextwaitm.ptr())`, `if atomic.Casuintptr(&l.key, v, next)`, `oldest.nextwaitm = 0`, `v = atomic.Loaduintptr(&l.key)`, `if oldestAbove == nil && mutexMFromKey(v) != oldest`, `break // a push put an M above oldest: walk again` */
		next = v & ~(mutexStackLocked | mutexSleeping);
		if :: above == 0 -> next = (next & flagBits) | mutexPartialM(nextwaitm[wakee]) :: else fi;
		if
		:: key == v ->
			key = next;
			stackOwner = 0;
			if :: above == 0 -> ghostOff(wakee, 2) :: else fi;
			nextwaitm[wakee] = 0;
			claimant = wakee; passer = 0;
			next = 0; above = 0; v = 0;
			passing = true;
			goto wake
		:: else -> next = 0; v = key
		fi;
		if
		:: above == 0 && mutexMFromKey(v) != wakee -> wakee = 0; goto p_walk
		:: else -> goto p_cas
		fi
	}
p_clear:
	atomic {        /* go mutexPassClaim: `if atomic.Casuintptr(&l.key, v, v&^(mutexStackLocked|mutexClaimed))`, `return`, `v = atomic.Loaduintptr(&l.key)` (no overdue M on the stack) */
		if
		:: key == v ->
			key = v & ~(mutexStackLocked | mutexClaimed);
			stackOwner = 0; passer = 0; v = 0;
			goto holding
		:: else -> v = key; goto p_walk
		fi
	}

	/* ---- unlock2 ---- */
holding:
#ifdef MUTANT_HINT_EARLY
	/* mutant: decide whether to wake from a load before the swap, not
	 * from what the swap returns */
	atomic {        /* mutant: the early load */
		old8 = key & lowByte
	}
#endif
	atomic {        /* go unlock2: `old8 := atomic.Xchg8(key8(&l.key), 0)`, `if old8&mutexLocked == 0`, `throw("unlock of unlocked lock")`, `if old8&mutexSleeping != 0`, `unlock2Wake(l)` */
#ifndef MUTANT_HINT_EARLY
		old8 = key & lowByte;
#endif
#ifdef MUTANT_WIDE_SWAP
		/* mutant: the release swaps 16 bits, not 8 */
		key = key & ~65535;
#else
		key = key & ~lowByte;
#endif
		assert((old8 & mutexLocked) != 0);      /* throw("unlock of unlocked lock") */
		holders--;
		if
		:: (old8 & mutexSleeping) != 0 -> old8 = 0; goto w_load
		:: else -> unlocked()
		fi
	}

	/* ---- unlock2Wake ---- */
w_load:
	atomic {        /* go unlock2Wake: `v := atomic.Loaduintptr(&l.key)` */
		v = key;
		wakeDecide()
	}
w_take:
	atomic {        /* go unlock2Wake: `if atomic.Casuintptr(&l.key, v, v|mutexStackLocked)`, `v |= mutexStackLocked`, `v = atomic.Loaduintptr(&l.key)` */
		if
		:: key == v ->
			key = v | mutexStackLocked;
			stackOwner = me;
			v = v | mutexStackLocked;
			popDecide()
		:: else -> v = key; wakeDecide()
		fi
	}
w_pop:
	atomic {        /* go unlock2Wake: `top := mutexMFromKey(v)`, `below := top.nextwaitm.ptr()`, `if atomic.Casuintptr(&l.key, v, v&^(mutexMMask|mutexStackLocked|mutexSleeping)|mutexPartialM(below))`, `v = atomic.Loaduintptr(&l.key)`
			 * (top's link changes only by the hand of the stack's owner,
			 * this M, so its read shares the CAS's step) */
		if
		:: key == v ->
			wakee = mutexMFromKey(v);
			key = (v & flagBits & ~(mutexStackLocked | mutexSleeping)) | mutexPartialM(nextwaitm[wakee]);
			stackOwner = 0;
			ghostPopTop(wakee);
			v = 0;
			goto wake
		:: else -> v = key; popDecide()
		fi
	}
w_rel:
	atomic {        /* go unlock2Wake: `for !atomic.Casuintptr(&l.key, v, v&^mutexStackLocked)`, `v = atomic.Loaduintptr(&l.key)`, `return` (l was claimed since this M took the stack: the claimant wakes the Ms that wait for it) */
		if
		:: key == v -> key = v & ~mutexStackLocked; stackOwner = 0; v = 0; unlocked()
		:: else -> v = key; goto w_rel
		fi
	}

	/* ---- semawakeup(wakee) (lock_futexsema.go), from mutexPassClaim
	 * (passing: this M holds l, and its critical section follows) or from
	 * unlock2Wake (unlock2 returns) ---- */
wake:
	atomic {        /* go semawakeup: `if atomic.Xadd(&mp.waitsema, 1) == 1` */
		assert(phase[wakee] == 2);
		waitsema[wakee]++;
		assert(waitsema[wakee] == 1);   /* no M is given two wakeups */
		if
		:: waitsema[wakee] == 1 -> goto futexwake
		:: else -> wakee = 0; woken()
		fi
	}
futexwake:
	atomic {        /* go semawakeup: `futexwakeup(&mp.waitsema, 1)` */
		infutex[wakee] = false;
		wakee = 0;
		woken()
	}

#ifndef FOREVER
finished:
	skip
#endif
}

init {
	atomic {        /* model: start the Ms */
		run M(1); run M(2); run M(3);
#if NM >= 4
		run M(4);
#endif
	}
}

#ifndef FOREVER
/* Progress, checked with pan -a -f (weak fairness): every M completes all
 * of its acquisitions, so every M that went to sleep was woken or left. */
ltl terminates { <> (done == NM) }
#endif

#ifdef FOREVER
/* A claim is honoured, checked with pan -a -f (weak fairness): an M that
 * holds the claim eventually takes l. */
#define CLAIMDONE(m) (claimant == m -> <> (claimant != m))
#if NM >= 4
ltl claims { [] (CLAIMDONE(1) && CLAIMDONE(2) && CLAIMDONE(3) && CLAIMDONE(4)) }
#else
ltl claims { [] (CLAIMDONE(1) && CLAIMDONE(2) && CLAIMDONE(3)) }
#endif

/* No sleeper is forgotten: while an M is on the stack and nobody owns the
 * stack, eventually somebody takes the stack (a waker, or the M itself after
 * a timeout), or the M is off it. This does not hold under weak fairness
 * (pan -a -f finds a cycle; model/README.md), and the suite does not run it. */
#define WAKESTARTS(m) ((phase[m] == 1 && stackOwner == 0) -> <> (phase[m] != 1 || stackOwner != 0))
#if NM >= 4
ltl wakes { [] (WAKESTARTS(1) && WAKESTARTS(2) && WAKESTARTS(3) && WAKESTARTS(4)) }
#else
ltl wakes { [] (WAKESTARTS(1) && WAKESTARTS(2) && WAKESTARTS(3)) }
#endif
#endif
