/*
 * spinbit.pml: a Promela model, for the Spin model checker, of the
 * go-spinbit runtime mutex as goroot/src/runtime/lock_spinbit.go implements
 * it (lock2, lock2Slow, unlock2, unlock2Wake), with the M semaphore it sleeps
 * on from goroot/src/runtime/lock_futexsema.go (semasleep, semawakeup) and
 * the partial M pointers of lock_mkey.go.
 *
 * One process is one M that takes and releases the one mutex, l. Every
 * atomic block in proctype M is one atomic operation of the Go code (an
 * 8-bit swap, a CAS, a load, a store, an Xadd, or a futex call)
 * together with the local computation that follows it up to the next
 * shared access. The comment on each names the Go function and, in
 * backquotes, the Go statements it stands for; model/README.md explains
 * how a test keeps those quotes honest. Local computation is invisible to
 * the other Ms, so folding it into the neighbouring step loses no
 * interleaving.
 *
 * What is checked, and how (model/README.md has the commands):
 *   - mutual exclusion, the shape and order of the stack of sleepers, who
 *     owns mutexSpinning and mutexStackLocked, which M each wakeup takes
 *     (the top, or the bottom when forced), no M woken twice: assertions
 *     and the invariant of proctype monitor;
 *   - no lost wakeup: invalid end states (a sleeper nobody wakes) and the
 *     assertion of proctype final;
 *   - progress, under weak fairness: the LTL formulas "terminates" (every
 *     M finishes its NACQ acquisitions) and, with FOREVER, "wakes" (no
 *     sleeper is forgotten);
 *   - with -DSKIPBOUND, the anti-starvation bound the header comment of
 *     lock_spinbit.go claims ("Wakeups and starvation").
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

/* mutexWakeAfterSkips, 1<<18 in Go, scaled down: with 2, an M leaves the waking
 * to a spinner once and wakes the longest sleeper the next time. */
#ifndef WAKEAFTER
#define WAKEAFTER 2
#endif
#if WAKEAFTER < 1
#error "WAKEAFTER must be at least 1"
#endif

/* ---- the key word, with the Go constants' values ----------------------- */

#define mutexLocked      1
#define mutexSleeping    2
#define mutexSpinning    256
#define mutexStackLocked 512
#define mutexMBits       10
#define lowByte          255   /* what key8 addresses: the swaps write all of it */
#define flagBits         1023  /* ^mutexMMask */
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

/* ---- ghost state, read only by the checks ------------------------------ */

byte holders;                   /* Ms between acquiring l and releasing it */
byte stackOwner;                /* the M that owns mutexStackLocked, or 0 */
byte phase[NM + 1];             /* 0 awake, 1 on the stack, 2 taken off but not yet awake */
byte rank[NM + 1];              /* M on the stack: how many on it went to sleep before it */
byte nsleep;                    /* Ms on the stack */
#ifndef FOREVER
byte done;                      /* Ms that finished their NACQ acquisitions */
#endif
#ifdef SKIPBOUND
byte blind[NM + 1];             /* an M's unlocks with sleepers since the bottom was last woken */
#endif

inline acquired() {
	holders++;
	assert(holders == 1)            /* mutual exclusion */
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

/* m leaves the stack. Every M on it that went to sleep after m moves down
 * one rank. Waking the bottom, the M that has slept longest, starts every
 * M's count for the starvation bound again. */
inline ghostPop(m) {
	assert(m != 0 && phase[m] == 1);/* it was on the stack: nobody is woken twice */
	phase[m] = 2;
	rankDown(m, 1); rankDown(m, 2); rankDown(m, 3);
#if NM >= 4
	rankDown(m, 4);
#endif
#ifdef SKIPBOUND
	if
	:: rank[m] == 0 ->
		blind[1] = 0; blind[2] = 0; blind[3] = 0;
#if NM >= 4
		blind[4] = 0;
#endif
	:: else
	fi;
#endif
	rank[m] = 0;
	nsleep--
}

/* The CAS that takes the top off: m went to sleep after every other M on
 * the stack. */
inline ghostPopTop(m) {
	assert(m != 0 && rank[m] == nsleep - 1);        /* the stack is in the order its Ms slept */
	ghostPop(m)
}

/* The store that unlinks the bottom: m has slept longest. */
inline ghostPopBottom(m) {
	assert(m != 0 && nextwaitm[m] == 0 && rank[m] == 0);   /* at the bottom, and the first asleep */
	ghostPop(m)
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
#define ALLIDLE (phase[1] + phase[2] + phase[3] + phase[4] + \
	waitsema[1] + waitsema[2] + waitsema[3] + waitsema[4] == 0)
#else
#define STACKOK (K3 == 0 && (K1 == 0 || K1 != K0) && (K2 == 0 || (K2 != K0 && K2 != K1)))
#define LISTED(m) (K0 == (m) || K1 == (m) || K2 == (m))
#define MEMBERS (((phase[1] == 1) == LISTED(1)) && ((phase[2] == 1) == LISTED(2)) && \
	((phase[3] == 1) == LISTED(3)))
#define NSPINNERS (spinning[1] + spinning[2] + spinning[3])
#define ALLIDLE (phase[1] + phase[2] + phase[3] + waitsema[1] + waitsema[2] + waitsema[3] == 0)
#endif

/* True in every state:
 *   - at most one M holds l;
 *   - the stack has no cycle and no M twice, and holds exactly the Ms that
 *     went to sleep and were not taken off: none lost, none extra;
 *   - mutexSpinning is set exactly when one M owns it, and likewise
 *     mutexStackLocked;
 *   - bits 2-7, which every swap of the low byte writes, stay zero;
 *   - the hint is set only while l is held and Ms sleep: every step that
 *     sets it requires mutexLocked or sets it, and checks the stack, and
 *     the release swap and the CASes that take an M off clear it.
 * Each is asserted on its own, so that pan names the one that failed. */
#define SPINOK (NSPINNERS <= 1 && ((key & mutexSpinning) != 0) == (NSPINNERS == 1))
#define OWNEROK (((key & mutexStackLocked) != 0) == (stackOwner != 0))
#define HINTOK ((key & mutexSleeping) == 0 || ((key & mutexLocked) != 0 && mutexMFromKey(key) != 0))
#define INVARIANT (holders <= 1 && nextwaitm[0] == 0 && STACKOK && MEMBERS && SPINOK && OWNEROK && \
	(key & unusedBits) == 0 && HINTOK)

active proctype monitor() {
end:	atomic {        /* model: the invariant */
		!(INVARIANT) ->
		assert(holders <= 1);
		assert(nextwaitm[0] == 0 && STACKOK);
		assert(MEMBERS);
		assert(SPINOK);
		assert(OWNEROK);
		assert((key & unusedBits) == 0);
		assert(HINTOK)
	}
}

#ifndef FOREVER
/* Once every M is done: l is free, nobody spins, owns the stack or sleeps,
 * and no semaphore holds a wakeup nobody took. The hint may still be set:
 * the header comment of lock_spinbit.go allows a stale one. */
active proctype final() {
end:	atomic { done == NM -> assert((key & ~mutexSleeping) == 0 && ALLIDLE) }   /* model: the end */
}
#endif

/* ---- the M ------------------------------------------------------------- */

/* After unlock2 returns: clear the dead locals, so that states that differ
 * only in them are one state, and lock again or finish. */
inline unlocked() {
	v = 0; next = 0; old8 = 0; top = 0; above = 0; bottom = 0; wakee = 0;
	leave = false; skipped = false; counted = false;
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

/* go unlock2Wake: `forced := mp.mLockSkips >= mutexWakeAfterSkips-1`
 * The count does not change in unlock2Wake's first loop, so the model
 * reads it where the Go code reads forced. unlock2 makes the same test. */
#define forced (skips >= WAKEAFTER - 1)

/* go unlock2: `gp.m.mLockSkips++` (an unlock that did not look at the stack) */
inline countUnlock() {
#ifdef MUTANT_NO_SKIPS
	/* mutant: the count never grows, so no wakeup is ever forced */
	skip
#else
	skips++
#endif
}

/* go countSkip: `if mp.mLockSkips < mutexWakeAfterSkips-1`, `mp.mLockSkips++` (an unlock that did not wake the bottom, in unlock2Wake) */
inline countSkip() {
	if :: skips < WAKEAFTER - 1 -> countUnlock() :: else fi
}

/* The top of lock2Slow's loop, after each load of v.
 * go lock2Slow: `if v&mutexLocked == 0`, `if !spinning && v&mutexSpinning == 0`,
 * `if spinning && spins < mutexActiveSpins+mutexPassiveSpins` */
inline slowDecide() {
	if
	:: (v & mutexLocked) == 0 -> goto s_acquire
	:: else ->
		if
		:: !spinning[me] && (v & mutexSpinning) == 0 -> goto s_spin
		:: spinning[me] && spins < SPINS -> goto s_poll
		:: else -> goto s_push
		fi
	fi
}

/* The top of unlock2Wake's first loop, after each load of v: return, leave
 * the waking and the hint to an M that owes them, or take the stack (w_take).
 * go unlock2Wake: `if v&mutexMMask == 0`, `mp.mLockSkips = 0 // nobody sleeps`,
 * `if v&mutexStackLocked != 0 || !forced && v&mutexSpinning != 0`, `countSkip(mp)`, `return` */
inline wakeDecide() {
	if
	:: mutexMFromKey(v) == 0 ->
#ifndef MUTANT_OLD_SKIPS
		skips = 0;
#endif
		unlocked()
	:: else ->
#if defined(MUTANT_OLD_SKIPS)
		/* mutant: the count before the bound was fixed. An unlock that saw
		 * no hint was not counted, and one that left the waking to a
		 * spinner was counted only while the count lasted. */
		leave = (v & mutexStackLocked) != 0 ||
			((v & mutexSpinning) != 0 && skips < WAKEAFTER - 1);
		skipped = leave && (v & mutexStackLocked) == 0;
#elif defined(MUTANT_FORCE_SPINNER)
		/* mutant: a forced unlock still leaves the waking to a spinner */
		leave = (v & (mutexStackLocked | mutexSpinning)) != 0;
#elif defined(MUTANT_LEAVE_HOLDER)
		/* mutant: leave the waking to an M that took l after the swap,
		 * although that M owes no hint */
		leave = (v & mutexStackLocked) != 0 || (!forced && (v & (mutexLocked | mutexSpinning)) != 0);
#else
		leave = (v & mutexStackLocked) != 0 || (!forced && (v & mutexSpinning) != 0);
#endif
		if
		:: leave ->
#ifdef SKIPBOUND
			/* an unlock that finds another M owning the stack is not counted */
			if :: counted && (v & mutexStackLocked) != 0 -> blind[me]-- :: else fi;
#endif
#ifdef MUTANT_OLD_SKIPS
			/* mutant: count only unlocks that left the waking to a spinner */
			if :: skipped -> skips++ :: else fi;
#else
			countSkip();
#endif
			unlocked()
		:: else -> goto w_take
		fi
	fi
}

proctype M(byte me) {
	int  v, next;           /* lock2Slow's and unlock2Wake's v and next */
	byte old8;              /* lock2's and unlock2's old8 */
	byte spins;             /* lock2Slow */
	byte skips;             /* m.mLockSkips, kept from one unlock to the next */
	byte top, above, bottom;/* unlock2Wake's top, above and bottom (the walk to the bottom) */
	byte wakee;             /* semawakeup's mp */
	bool leave;             /* unlock2Wake's leave */
	bool counted;           /* SKIPBOUND: this unlock counts against blind[me] */
	bool skipped;           /* MUTANT_OLD_SKIPS: the old code's toSpinner */
	byte sv;                /* semasleep's v */
#ifndef FOREVER
	byte acq;               /* acquisitions done */
#endif

	/* ---- lock2 ---- */
lock2:
	atomic {        /* go lock2: `prev := atomic.Xchg8(key8(&l.key), mutexLocked)`, `if prev&mutexLocked != 0` */
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked;
		if
		:: (old8 & mutexLocked) == 0 ->
			/* the Go code has no Or8 here: a free mutex has no hint
			 * to restore (HINTOK) */
			assert((old8 & mutexSleeping) == 0);
			acquired();
			old8 = 0;
			goto holding
		:: else -> old8 = 0; goto slow
		fi
	}

	/* ---- lock2Slow ---- */
slow:
	atomic {        /* go lock2Slow: `v := atomic.Loaduintptr(&l.key)` */
		spins = 0;
		v = key;
		slowDecide()
	}
s_acquire:
	atomic {        /* go lock2Slow: `next := v | mutexLocked`, `next &^= mutexSpinning`, `if atomic.Casuintptr(&l.key, v, withSleepHint(next))` */
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
			spinning[me] = false; spins = 0; v = 0; next = 0;
			acquired();
			goto holding
		:: else -> next = 0; goto s_load
		fi
	}
s_spin:
	atomic {        /* go lock2Slow: `if atomic.Casuintptr(&l.key, v, withSleepHint(v|mutexSpinning))`, `spinning = true`, `spins = 0` */
		if
		:: key == v -> key = withSleepHint(v | mutexSpinning); spinning[me] = true; spins = 0
		:: else
		fi;
		goto s_load
	}
s_poll:
	atomic {        /* go lock2Slow: `spins++`, `v = atomic.Loaduintptr(&l.key)` (after procyield or osyield) */
		spins++;
		v = key;
		slowDecide()
	}
s_load:
	atomic {        /* go lock2Slow: `v = atomic.Loaduintptr(&l.key)`, `continue` (a CAS failed, or the spin CAS ran) */
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
	atomic {        /* go lock2Slow: `gp.m.nextwaitm.set(mutexMFromKey(v))`, `next := v&^mutexMMask | mutexPartialM(gp.m) | mutexSleeping`, `next &^= mutexSpinning`, `if atomic.Casuintptr(&l.key, v, next)`, `spinning = false`
			 * The link is this M's own, and nobody reads it before the CAS
			 * publishes the M, so the plain store shares the CAS's step. */
		nextwaitm[me] = mutexMFromKey(v);
		next = (v & flagBits) | mutexPartialM(me) | mutexSleeping;
#ifndef MUTANT_SPIN_LATE
		if :: spinning[me] -> next = next & ~mutexSpinning :: else fi;
#endif
		if
#ifdef MUTANT_PUSH_FREE
		/* mutant: the push CAS does not require mutexLocked to be set */
		:: (key | mutexLocked) == v ->
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
		:: else -> next = 0; goto s_load
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

	/* ---- semasleep(-1) (lock_futexsema.go); on return, back to lock2Slow's loop ---- */
s_sleep:
	atomic {        /* go semasleep: `v := atomic.Load(&mp.waitsema)`, `if v > 0` */
		sv = waitsema[me];
		if
		:: sv > 0 -> goto s_semcas
		:: else -> goto s_futex
		fi
	}
s_semcas:
	atomic {        /* go semasleep: `if atomic.Cas(&mp.waitsema, v, v-1)`, `return 0` */
		if
		:: waitsema[me] == sv ->
			waitsema[me] = sv - 1; sv = 0;
			assert(phase[me] == 2);         /* woken only after being taken off */
			phase[me] = 0;
			goto s_woken
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
s_woken:
	atomic {        /* go lock2Slow: `v = atomic.Loaduintptr(&l.key)`, `continue` (after semasleep) */
		v = key;
		slowDecide()
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
	atomic {        /* go unlock2: `old8 := atomic.Xchg8(key8(&l.key), 0)`, `if old8&mutexLocked == 0`, `throw("unlock of unlocked lock")`,
			 * `if old8&mutexSleeping != 0 || gp.m.mLockSkips >= mutexWakeAfterSkips-1`, `unlock2Wake(l)`, `gp.m.mLockSkips++` */
#ifdef SKIPBOUND
		/* The bound: an unlock made while Ms sleep and no M owns the
		 * stack counts against this M, unless unlock2Wake then finds an
		 * owner (wakeDecide); a wakeup of the bottom starts every M's
		 * count again (ghostPop). */
		if
		:: mutexMFromKey(key) != 0 && stackOwner == 0 ->
			blind[me]++; counted = true;
			assert(blind[me] <= WAKEAFTER)  /* the starvation bound */
		:: else
		fi;
#endif
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
#if defined(MUTANT_OLD_SKIPS)
		:: (old8 & mutexSleeping) != 0 -> old8 = 0; goto w_load
		:: else -> unlocked()
#elif defined(MUTANT_NO_FORCED_CHECK)
		/* mutant: count the unlock, but never look at the stack when the
		 * hint is clear */
		:: (old8 & mutexSleeping) != 0 -> old8 = 0; goto w_load
		:: else -> if :: !forced -> countUnlock() :: else fi; unlocked()
#else
		:: (old8 & mutexSleeping) != 0 || forced -> old8 = 0; goto w_load
		:: else -> countUnlock(); unlocked()
#endif
		fi
	}

	/* ---- unlock2Wake ---- */
w_load:
	atomic {        /* go unlock2Wake: `v := atomic.Loaduintptr(&l.key)` */
		v = key;
		wakeDecide()
	}
w_take:
	atomic {        /* go unlock2Wake: `if atomic.Casuintptr(&l.key, v, v|mutexStackLocked)`, `v |= mutexStackLocked` */
		if
		:: key == v ->
			key = v | mutexStackLocked;
			stackOwner = me;
			v = v | mutexStackLocked;
			leave = false; skipped = false; counted = false;
			goto w_top
		:: else -> goto w_reload
		fi
	}
w_reload:
	atomic {        /* go unlock2Wake: `v = atomic.Loaduintptr(&l.key)` (the first loop) */
		v = key;
		wakeDecide()
	}
w_top:
	atomic {        /* go unlock2Wake: `top := mutexMFromKey(v)`, `below := top.nextwaitm.ptr()`, `if below != nil && (forced || mp.mLockTopWakes >= mutexBottomWakeEvery-1)`, `above, bottom := top, below`
			 * (a read of a link that only this M, the stack's owner, may change)
			 * The model does not keep mLockTopWakes: an unforced wakeup of a
			 * stack of two or more may take the bottom or the top, either. */
		top = mutexMFromKey(v);
		if
#ifdef MUTANT_FORCED_TOP
		:: true -> goto w_poptop
#else
		:: !(forced && nextwaitm[top] != 0) -> goto w_poptop
		:: forced && nextwaitm[top] != 0 -> above = top; bottom = nextwaitm[top]; goto w_walk
#endif
		:: !forced && nextwaitm[top] != 0 -> above = top; bottom = nextwaitm[top]; goto w_walk
		fi
	}
w_poptop:
	atomic {        /* go unlock2Wake: `if atomic.Casuintptr(&l.key, v, v&^(mutexMMask|mutexStackLocked|mutexSleeping)|mutexPartialM(below))`,
			 * `if below == nil`, `mp.mLockSkips = 0`, `countSkip(mp)` */
		if
		:: key == v ->
			key = (v & flagBits & ~(mutexStackLocked | mutexSleeping)) | mutexPartialM(nextwaitm[top]);
			stackOwner = 0;
			ghostPopTop(top);
			if
#ifdef MUTANT_TOP_RESETS
			/* mutant: waking the top starts the count again */
			:: true -> skips = 0
#else
			:: nextwaitm[top] == 0 -> skips = 0
			:: else -> countSkip()
#endif
			fi;
			wakee = top; top = 0; v = 0;
			goto w_wake
		:: else -> top = 0; goto w_top_reload
		fi
	}
w_top_reload:
	atomic {        /* go unlock2Wake: `v = atomic.Loaduintptr(&l.key)` (the second loop) */
		v = key;
		goto w_top
	}
w_walk:
	atomic {        /* go unlock2Wake: `for bottom.nextwaitm != 0`, `above = bottom`, `bottom = bottom.nextwaitm.ptr()` */
		if
		:: nextwaitm[bottom] != 0 -> above = bottom; bottom = nextwaitm[bottom]; goto w_walk
		:: else ->
#ifdef MUTANT_UNLINK_LATE
			goto w_release
#else
			goto w_unlink
#endif
		fi
	}
w_unlink:
	atomic {        /* go unlock2Wake: `above.nextwaitm = 0` */
		nextwaitm[above] = 0;
		ghostPopBottom(bottom);
		above = 0; top = 0;
#ifdef MUTANT_UNLINK_LATE
		wakee = bottom; bottom = 0;
		goto w_wake
#else
		goto w_release
#endif
	}
w_release:
	atomic {        /* go unlock2Wake: `for !atomic.Casuintptr(&l.key, v, v&^(mutexStackLocked|mutexSleeping))`, `mp.mLockSkips = 0` */
		if
		:: key == v ->
			key = v & ~(mutexStackLocked | mutexSleeping);
			stackOwner = 0;
			skips = 0;
			v = 0;
#ifdef MUTANT_UNLINK_LATE
			/* mutant: the stack is given up before the bottom is unlinked */
			goto w_unlink
#else
			wakee = bottom; bottom = 0;
			goto w_wake
#endif
		:: else -> goto w_release_reload
		fi
	}
w_release_reload:
	atomic {        /* go unlock2Wake: `v = atomic.Loaduintptr(&l.key)` (in the CAS loop) */
		v = key;
		goto w_release
	}

	/* ---- semawakeup(wakee) (lock_futexsema.go); then unlock2 returns ---- */
w_wake:
	atomic {        /* go semawakeup: `if atomic.Xadd(&mp.waitsema, 1) == 1` */
		assert(phase[wakee] == 2);
		waitsema[wakee]++;
		assert(waitsema[wakee] == 1);   /* no M is given two wakeups */
		if
		:: waitsema[wakee] == 1 -> goto w_futexwake
		:: else -> wakee = 0; unlocked()
		fi
	}
w_futexwake:
	atomic {        /* go semawakeup: `futexwakeup(&mp.waitsema, 1)` */
		infutex[wakee] = false;
		wakee = 0;
		unlocked()
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
 * of its acquisitions, so every M that went to sleep was woken. */
ltl terminates { <> (done == NM) }
#endif

#ifdef FOREVER
/* No sleeper is forgotten, checked with pan -a -f (weak fairness): while an
 * M is on the stack and nobody owns the stack, eventually somebody takes the
 * stack to wake the longest sleeper (or the M is off it). That the wakeup
 * then completes is not claimed under weak fairness alone: the owner's CAS
 * loops are lock-free, not wait-free, and an M that keeps changing the word
 * can make each of them fail forever. */
#define WAKESTARTS(m) ((phase[m] == 1 && stackOwner == 0) -> <> (phase[m] != 1 || stackOwner != 0))
#if NM >= 4
ltl wakes { [] (WAKESTARTS(1) && WAKESTARTS(2) && WAKESTARTS(3) && WAKESTARTS(4)) }
#else
ltl wakes { [] (WAKESTARTS(1) && WAKESTARTS(2) && WAKESTARTS(3)) }
#endif
#endif
