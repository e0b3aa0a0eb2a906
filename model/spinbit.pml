/*
 * spinbit.pml: a Promela model, for the Spin model checker, of the
 * go-spinbit runtime mutex as goroot/src/runtime/lock_spinbit.go
 * implements it: lock2, lock2Slow, mutexSleepOnStack, mutexPushed,
 * mutexPassClaim, unlock2, unlock2Sampled, unlock2Wake, mutexWakee,
 * mutexUnlink, and the crash path (mutexOnCrashPath, mutexCrashWait), with
 * the futex M semaphore (semasleep(-1) and semawakeup) and
 * the partial M pointers of lock_mkey.go.
 *
 * One process is one M that takes and releases the one mutex, l. Every
 * atomic block of an M is one atomic operation of the Go code (an 8-bit
 * swap or OR, the 32-bit OR that claims, a word CAS, a load, or a
 * semaphore call) together with the local computation that follows it up
 * to the next shared access. The comment on each names the Go function
 * and quotes, in backquotes, the Go statements it stands for;
 * model/README.md says how a test keeps those quotes honest. A few steps
 * fold in more, and say why where they do:
 *   - an M's stores to its own mWaitList fields while it is not on the
 *     stack (its link, count and starving mark before its push, its heir
 *     mark as it claims or enters) share the step of the atomic next to
 *     them: only the owner of the stack lock reads them, and only of Ms on
 *     the stack;
 *   - mutexWakee's walk and unlink, the count of a wake of the top in the
 *     bottom's topWakes, mutexPassClaim's walk for the oldest starving M
 *     and its store of the named M's heir mark, and unlock2Sampled's walk
 *     to the bottom, share the step of the CAS that takes the stack lock
 *     (or of the CAS that gives it up, or of the load before a retry):
 *     only the owner of the stack lock reads or writes the links, marks
 *     and counts of Ms on the stack;
 *   - the store of the gift shares semawakeup's step, and semasleep's
 *     decrement, futexsleep and load share a step: the M woken reads its
 *     gift only after it takes the wakeup, and only it takes from its
 *     count (msema.pml checks the futex code of that count);
 *   - the count and marks of an M taken off the stack are set to zero as
 *     it is taken off, as well as at its push, where the Go code sets
 *     them, so that states differing only in what nobody reads are one.
 * The polls and yields (procyield, osyield, usleep) are only
 * interleavings: the loads after them are steps. The heir that finds the
 * stack lock held in mutexPassClaim waits for the key word to change, or
 * gives up at any moment: its count of yields (mutexPassClaimTries) is not
 * kept, so every bound is covered, from giving up at once to never. The
 * model is sequentially consistent; l is not sched.lock
 * (mutexPreferLowLatency is false); the profile's times and torture
 * mode's hooks do nothing to the protocol and are left out.
 *
 * The key word is an int with the Go constants' values; M number m stands
 * for its partial pointer in bits 11 and up. Each 8-bit swap writes the
 * whole low byte, so it clears bits 2-7 and leaves bits 8 and up alone;
 * the ORs change only their bits; the other bits change only by CAS.
 *
 * What is checked (model/README.md has the checks and the mutants):
 *   - in every state (proctype monitor): mutual exclusion; mutexLocked set
 *     exactly while an M holds l; the stack without cycles or repeats,
 *     holding exactly the Ms that pushed themselves and were not taken
 *     off; mutexSpinning and mutexStackLocked each set exactly while one M
 *     owns it; at most one heir, mutexHeir set while there is one, and its
 *     mark (m.mWaitList.heir) set exactly while it is the heir; bits 2-7
 *     zero;
 *   - the bound: from an M's heir event (its claim, or its naming by
 *     mutexPassClaim) until it takes l, no other M takes l but on the
 *     crash path (assertion in entered());
 *   - the naming order: a starving M on the stack is passed over by at
 *     most NM-1 namings of other Ms between its push and its own naming
 *     or wake (assertion in designate());
 *   - at most one wakeup pending per M (assertion at semawakeup, but with
 *     the binary semaphore of -DBINSEMA);
 *   - no lost wakeup, and a clean end: with finite runs a sleeper nobody
 *     wakes, or any M that waits for ever, is an invalid end state, and
 *     proctype final asserts that once every M is done l is free,
 *     unclaimed and idle;
 *   - progress under weak fairness: "terminates" (with finite runs, every
 *     M finishes), "live" (every M that calls lock2 returns), "heirlive"
 *     (every heir enters), and with -DLIVEF "livef" (every lock2 returns
 *     if the Ms lose only finitely many races: failed CASes, claims that
 *     another M made first, claims that an heir gave up because another M
 *     owned the stack lock, unlocks between another M's swap that cleared
 *     the hint and its OR).
 *
 * Defines: NM (2 or 3 Ms), ROUNDS (acquisitions per M) or FOREVER (lock
 * and unlock for ever); SPIN, PASS, LOOKS and TOPW, the constants below;
 * SAMPLE, the sampled unlock (unlock2Sampled) besides the quick one,
 * which every check defines on a Go tree that has unlock2Sampled;
 * BINSEMA, a semaphore that keeps one wakeup instead of a count; CRASH, a
 * signal handler on M 1 that takes l once on the crash path, at any
 * moment of M 1's life but while M 1 holds l, with M 1 frozen until it
 * returns; LIVEF, the ghost of lost races that "livef" reads; GIFTANY, a
 * wake that may keep mutexSpinning from the M it wakes, so that a check
 * covers every rule of when to give it. Each
 * -DMUTANT_... changes one marked spot.
 */

/* ---- configuration ---------------------------------------------------- */

#ifndef NM
#define NM 2            /* Ms taking part: 2 or 3 */
#endif
#if NM < 2 || NM > 3
#error "NM must be 2 or 3"
#endif
#ifndef ROUNDS
#define ROUNDS 1        /* acquisitions per M, without FOREVER */
#endif
/* mutexActiveSpinCount (4 in Go): with mutexPassiveSpinCount (1, kept),
 * a waiter that may poll polls SPIN+1 times before it sleeps. */
#ifndef SPIN
#define SPIN 1
#endif
/* mutexStarvePasses (2 in Go): passes that make a waiter starving. */
#ifndef PASS
#define PASS 2
#endif
/* mutexStarveLooks (64 in Go): passes of the loop that make a waiter
 * starving, however it was counted. */
#ifndef LOOKS
#define LOOKS 4
#endif
/* mutexTopWakes (3 in Go): wakes that may take the top of the stack while
 * one M sleeps at its bottom. */
#ifndef TOPW
#define TOPW 3
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

int  key;                       /* l.key */
byte nextwaitm[NM + 1];         /* m.mWaitList.next; [0], nil's, stays 0 */
bool heirMark[NM + 1];          /* m.mWaitList.heir */
bool starvingMark[NM + 1];      /* m.mWaitList.starving */
bool giftMark[NM + 1];          /* m.mWaitList.gift */
byte topWakes[NM + 1];          /* m.mWaitList.topWakes */
byte waitsema[NM + 1];          /* m.waitsema: the wakeups an M has not taken */

/* Where unlock2Wake returns to. */
#define R_FAST   1              /* lock2's back-off: on to lock2Slow */
#define R_KICK   2              /* lock2Slow's wake of a free, claimed l: its load */
#define R_SLOW   3              /* lock2Slow's back-off: a pass, its load */
#define R_UNLOCK 4              /* unlock2: it returns */

/* ---- ghost state, read only by the checks ------------------------------ */

byte holders;                   /* Ms in their critical sections */
byte owner;                     /* the M (or HID) that holds mutexLocked, or 0 */
byte spinOwner;                 /* the M that owns mutexSpinning, or 0 */
byte stackOwner;                /* the M (or HID) that owns mutexStackLocked, or 0 */
bool isHeir[NM + 2];            /* the heir, from its heir event to just after its entry */
bool onStack[NM + 1];           /* pushed and not taken off */
bool want[NM + 2];              /* inside lock2, not yet entered */
bool restoring[NM + 2];         /* between a fast path's swap that cleared the hint and its OR */
byte passedOver[NM + 1];        /* a starving sleeper: namings of others since its push */
#ifndef FOREVER
byte done;                      /* Ms that finished their ROUNDS acquisitions */
#endif
#ifdef LIVEF
bool failTick;                  /* flips at every race an M loses */
#define FAILED failTick = !failTick
#else
#define FAILED skip
#endif
#ifdef CRASH
bool intr;                      /* the handler runs on M 1, which is frozen */
byte m1pid = 255;               /* M 1's process id */
bool hdone;                     /* the handler has returned */
#endif

/* The mutant that lets the heir ignore its swap's result breaks who holds
 * mutexLocked first; its checks are off there, so that mutual exclusion
 * is the assertion that fails. */
#ifdef MUTANT_HEIR_NOCHECK
#define OWNED(c) skip
#define LOCKOK true
#else
#define OWNED(c) assert(c)
#define LOCKOK (((key & mutexLocked) != 0) == (owner != 0))
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
#define NHEIRS (isHeir[1] + isHeir[2] + isHeir[3])
#define HEIRBITOK ((!isHeir[1] || (key & mutexHeir) != 0) && (!isHeir[2] || (key & mutexHeir) != 0) && (!isHeir[3] || (key & mutexHeir) != 0))
#define MARKOK (heirMark[1] == isHeir[1] && heirMark[2] == isHeir[2] && heirMark[3] == isHeir[3])
#define IDLE(m) (waitsema[m] == 0 && !onStack[m] && !heirMark[m])
#define ALLIDLE (IDLE(1) && IDLE(2) && IDLE(3))
#define RESTORING (restoring[1] || restoring[2] || restoring[3])
#else
#define STACKOK (K2 == 0 && (K1 == 0 || K1 != K0))
#define LISTED(m) (K0 == (m) || K1 == (m))
#define MEMBERS ((onStack[1] == LISTED(1)) && (onStack[2] == LISTED(2)))
#define NHEIRS (isHeir[1] + isHeir[2])
#define HEIRBITOK ((!isHeir[1] || (key & mutexHeir) != 0) && (!isHeir[2] || (key & mutexHeir) != 0))
#define MARKOK (heirMark[1] == isHeir[1] && heirMark[2] == isHeir[2])
#define IDLE(m) (waitsema[m] == 0 && !onStack[m] && !heirMark[m])
#define ALLIDLE (IDLE(1) && IDLE(2))
#define RESTORING (restoring[1] || restoring[2])
#endif

#define SPINOK (((key & mutexSpinning) != 0) == (spinOwner != 0))
#define SLOK   (((key & mutexStackLocked) != 0) == (stackOwner != 0))
#define INVARIANT (holders <= 1 && LOCKOK && nextwaitm[0] == 0 && STACKOK && MEMBERS && \
		   SPINOK && SLOK && NHEIRS <= 1 && HEIRBITOK && MARKOK && (key & unusedBits) == 0)

active proctype monitor() {
end:	atomic {        /* model: the invariant, in every state */
		!(INVARIANT) ->
		assert(holders <= 1);
		assert(LOCKOK);
		assert(nextwaitm[0] == 0 && STACKOK);
		assert(MEMBERS);
		assert(SPINOK);
		assert(SLOK);
		assert(NHEIRS <= 1);
		assert(HEIRBITOK);
		assert(MARKOK);
		assert((key & unusedBits) == 0)
	}
}

#ifndef FOREVER
#ifdef CRASH
#define ALLDONE (done == NM && hdone)
#else
#define ALLDONE (done == NM)
#endif
/* Once every M is done: l is free, unclaimed, without hint and stack;
 * nobody spins, owns the stack, sleeps or is named the heir, and no
 * semaphore holds a wakeup nobody took. */
active proctype final() {
end:	atomic { ALLDONE -> assert(key == 0 && ALLIDLE && holders == 0 && owner == 0 && spinOwner == 0 && stackOwner == 0 && NHEIRS == 0) }   /* model: the end */
}
#endif

/* ---- ghost steps --------------------------------------------------------- */

/* me takes l, not on the crash path: at the CAS that takes it, the heir's
 * swap, or the load after a swap that finds no claim. No other M may be
 * the heir then (the bound). */
inline entered() {
	OWNED(owner == me);
	holders++;
	assert(holders == 1);                   /* mutual exclusion */
	assert(NHEIRS == 0 || isHeir[me]);      /* the bound: no entry between an heir event and the heir's */
	want[me] = false
}

/* me's heir event by its claim: the OR that found mutexHeir clear. */
inline heirEvent() {
	assert(NHEIRS == 0);                    /* one heir at a time */
	heirMark[me] = true;
	isHeir[me] = true;
	heir = true
}

/* The heir's mutexPassClaim names n, asleep on the stack, the next heir:
 * n's heir event. Every other starving M on the stack is passed over;
 * at most NM-1 namings pass one over between its push and its own naming
 * or wake (the naming order). */
inline designate(n) {
	assert(NHEIRS == 0 && onStack[n]);      /* one heir at a time */
	heirMark[n] = true;
	isHeir[n] = true;
	p = mutexMFromKey(key);
	do
	:: p == 0 -> break
	:: p != 0 ->
		if
		:: p != n && starvingMark[p] ->
			passedOver[p]++;
			assert(passedOver[p] <= NM - 1) /* the naming order */
		:: else -> skip
		fi;
		p = nextwaitm[p]
	od
}

#define INC(x, cap) x = ((x) < (cap) -> (x) + 1 : (x))

/* lock2Slow's locals are dead once it returns: clear them, so that states
 * differing only there are one. */
inline slowDone() {
	v = 0; nv = 0; i = 0; passed = 0; looks = 0; heirNext = 0;
	weSpin = false; atTail = false; heir = false; slept = false; kicked = false
}

/* ---- unlock2Wake and mutexWakee ----------------------------------------- */

/* Where unlock2Wake returns to, in lock2, lock2Slow or unlock2. */
inline wakeReturn() {
	v = 0; nv = 0; wakem = 0; gift = false; committed = 0; passedBottom = 0;
	if
	:: ret == R_FAST -> ret = 0; goto s_first
	:: ret == R_KICK -> ret = 0; goto s_reload
	:: ret == R_SLOW -> ret = 0; INC(passed, PASS); goto s_reload
	:: ret == R_UNLOCK -> ret = 0; goto unlocked
	fi
}

/* mutexUnlink: w, below a, leaves the stack. */
inline unlink(a, w) {
	nextwaitm[a] = nextwaitm[w];
	onStack[w] = false
}

/* mutexWakee for the key word v, whose stack the caller owns: wakem,
 * committed (an M unlinked from below the top) and passedBottom. */
inline mutexWakee() {
	t = mutexMFromKey(v);
	wakem = 0; passedBottom = 0;
	if
	:: (v & mutexHeir) != 0 ->
		above = 0; p = t;
		do
		:: p == 0 -> break
		:: p != 0 && heirMark[p] ->
			if
			:: p != t -> unlink(above, p); committed = p
			:: else -> skip
			fi;
			wakem = p;
			break
		:: p != 0 && !heirMark[p] -> above = p; p = nextwaitm[p]
		od
	:: (v & mutexHeir) == 0 && (v & mutexSpinning) != 0 -> skip
	:: (v & mutexHeir) == 0 && (v & mutexSpinning) == 0 ->
		above = 0; bottom = t;
		do
		:: nextwaitm[bottom] != 0 -> above = bottom; bottom = nextwaitm[bottom]
		:: else -> break
		od;
		if
		:: bottom == t -> wakem = t
		:: bottom != t && topWakes[bottom] < TOPW -> wakem = t; passedBottom = bottom
		:: bottom != t && topWakes[bottom] >= TOPW -> unlink(above, bottom); wakem = bottom; committed = bottom
		fi
	fi;
	t = 0; p = 0; above = 0; bottom = 0
}

/* unlock2Wake's loop body with the stack lock owned, for v (on the first
 * pass after w_take, the word from before the stack lock): the word its
 * CAS writes (nv), whom it wakes and whether it gives mutexSpinning. */
inline wakeNext() {
	assert(mutexMFromKey(v) != 0 && (key & mutexStackLocked) != 0 && stackOwner == me);
	headM = mutexMFromKey(v);
	if
	:: committed == 0 -> mutexWakee()
	:: else -> wakem = committed; passedBottom = 0
	fi;
	if
	:: wakem != 0 && wakem == mutexMFromKey(v) -> headM = nextwaitm[wakem]
	:: else -> skip
	fi;
	nv = mutexPartialM(headM) | (v & flagBits & ~mutexStackLocked);
	gift = (wakem != 0 && (v & mutexSpinning) == 0);
#ifdef GIFTANY
	/* Any rule of when a wake gives the role: this one may keep it. */
	if
	:: gift -> gift = false
	:: true -> skip
	fi;
#endif
	if
	:: gift -> nv = nv | mutexSpinning
	:: else -> skip
	fi;
	headM = 0
}

/* unlock2Wake, from w_load, run by me (an M or the handler). */
inline wakeCode() {
	atomic {        /* go unlock2Wake: `v := atomic.Loaduintptr(&l.key)`, `if haveStackLock {`, `goto useStackLock`, `if !(v&mutexSpinning == 0 ||`, `v&mutexHeir != 0 ||`, `if v&mutexMMask == 0 || v&mutexStackLocked != 0 {` */
		/* go mutexPreferLowLatency: `return false` */
		v = key;
		committed = 0;
		if
		:: haveStackLock -> haveStackLock = false; wakeNext(); goto w_cas
#ifndef MUTANT_WAKE_SPINNER_RETURNS
		:: !haveStackLock && (v & mutexSpinning) != 0 && (v & mutexHeir) == 0 -> wakeReturn()
		:: !haveStackLock && !((v & mutexSpinning) != 0 && (v & mutexHeir) == 0) &&
		   (mutexMFromKey(v) == 0 || (v & mutexStackLocked) != 0) -> wakeReturn()
		:: !haveStackLock && !((v & mutexSpinning) != 0 && (v & mutexHeir) == 0) &&
		   mutexMFromKey(v) != 0 && (v & mutexStackLocked) == 0 -> goto w_take
#else
		:: !haveStackLock && (v & mutexSpinning) != 0 -> wakeReturn()  /* mutant: a spinner is enough, whatever the claim */
		:: !haveStackLock && (v & mutexSpinning) == 0 &&
		   (mutexMFromKey(v) == 0 || (v & mutexStackLocked) != 0) -> wakeReturn()
		:: !haveStackLock && (v & mutexSpinning) == 0 &&
		   mutexMFromKey(v) != 0 && (v & mutexStackLocked) == 0 -> goto w_take
#endif
		fi
	}
w_take:
	/* v keeps the word read before the CAS, without mutexStackLocked:
	 * the first pass decides on it (and may commit to an M below the
	 * top), but its CAS at w_cas fails for certain, and the pass at
	 * w_casload decides again on a fresh load. */
	atomic {        /* go unlock2Wake: `next := v | mutexStackLocked`, `if atomic.Casuintptr(&l.key, v, next) {`, `// v keeps the word read before the stack lock` */
		if
		:: key == v ->
			key = v | mutexStackLocked;
			assert(stackOwner == 0);
			stackOwner = me;
			wakeNext();
			goto w_cas
		:: else -> FAILED; goto w_takeload
		fi
	}
w_takeload:
	atomic {        /* go unlock2Wake: `v = atomic.Loaduintptr(&l.key)`, `if v&mutexMMask == 0 || v&mutexStackLocked != 0 {` */
		v = key;
		if
		:: mutexMFromKey(v) == 0 || (v & mutexStackLocked) != 0 -> wakeReturn()
		:: else -> goto w_take
		fi
	}
	/* mutexWakee's walk and unlink, and the count of a wake of the top in
	 * the bottom's topWakes, share the step of the CAS that takes the
	 * stack (or of the load after a failed CAS): only the stack's owner
	 * reads or writes the links, marks and counts of Ms on the stack. */
w_cas:
	atomic {        /* go unlock2Wake: `wakem, committed, passedBottom, event = mutexWakee(l, v, top)`, `if wakem == top {`, `headM = mutexPartialM(top.nextwaitm.ptr())`, `next := headM | flags`, `gift := wakem != nil && v&mutexSpinning == 0`, `next |= mutexSpinning`, `passedBottom.mWaitList.topWakes++ // while we own the stack`, `if atomic.Casuintptr(&l.key, v, next) {` */
		/* go mutexWakee: `if v&mutexHeir != 0 {`, `if p.mWaitList.heir {`, `mutexUnlink(above, p)`, `if v&mutexSpinning != 0 && !mutexPreferLowLatency(l) {`, `for bottom.nextwaitm != 0 {`, `if bottom == top {`, `if bottom.mWaitList.topWakes < mutexTopWakes {`, `return top, nil, bottom, mutexEventWakeTop`, `mutexUnlink(above, bottom)` */
		/* go mutexUnlink: `above.nextwaitm = w.nextwaitm` */
		if
		:: key == v ->
			key = nv;
			stackOwner = 0;
			if
			:: wakem != 0 && wakem == mutexMFromKey(v) -> onStack[wakem] = false
			:: else -> skip
			fi;
			if
			:: gift -> assert(spinOwner == 0); spinOwner = wakem
			:: else -> skip
			fi;
			if
			:: passedBottom != 0 -> topWakes[passedBottom]++
			:: else -> skip
			fi;
			/* the count and marks of an M taken off are read only
			 * after its next push writes them: clear them */
			if
			:: wakem != 0 -> topWakes[wakem] = 0; starvingMark[wakem] = false; passedOver[wakem] = 0; goto w_wake
			:: else -> wakeReturn()
			fi
		:: else -> FAILED; goto w_casload
		fi
	}
w_casload:
	atomic {        /* go unlock2Wake: `passedBottom.mWaitList.topWakes--`, `v = atomic.Loaduintptr(&l.key)`, `wakem := committed`, `if committed == nil {` */
		v = key;
		wakeNext();
		goto w_cas
	}
	/* The store of the gift shares semawakeup's step: the M woken reads
	 * it only after its semasleep takes the wakeup. */
w_wake:
	atomic {        /* go unlock2Wake: `wakem.mWaitList.gift = gift`, `semawakeup(wakem)` */
		/* go semawakeup: `atomic.Xadd(&mp.waitsema, 1)`, `futexwakeup(&mp.waitsema, 1)` */
		giftMark[wakem] = gift;
#ifndef BINSEMA
		assert(waitsema[wakem] == 0);       /* never a second pending wakeup */
		waitsema[wakem]++;
#else
		waitsema[wakem] = 1;                /* model: a binary semaphore keeps one wakeup */
#endif
		wakeReturn()
	}
}

/* ---- unlock2 ------------------------------------------------------------- */

/* unlock2's swap, and its test of the hint. */
inline release() {
	old8 = key & lowByte;
	key = key & ~lowByte;
#ifdef MUTANT_UNLOCK_CLEARS_CLAIM
	key = key & ~mutexHeir;                 /* mutant: the release also ends the claim */
#endif
	assert((old8 & mutexLocked) != 0);
	OWNED(owner == me);
	owner = 0;
	holders--;
	if
	:: (old8 & mutexSleeping) != 0 -> old8 = 0; haveStackLock = false; ret = R_UNLOCK; goto w_load
	:: else ->
		/* an unlock between another M's fast-path swap that cleared
		 * the hint and its OR that sets it again: a race that M loses */
		if
		:: RESTORING -> FAILED
		:: else -> skip
		fi;
		old8 = 0; goto unlocked
	fi
}

/* unlock2 from u_unlock, the critical section's end, run by me. With
 * -DSAMPLE it may take the sampled path (mutexSampleContention), which
 * releases l in unlock2Sampled if Ms sleep on it. */
inline unlockCode() {
#ifndef SAMPLE
	atomic {        /* go unlock2: `prev8 := atomic.Xchg8(key8(&l.key), 0)`, `if prev8&mutexLocked == 0 {`, `if prev8&mutexSleeping != 0 {`, `unlock2Wake(l, false)` */
		release()
	}
#else
	atomic {        /* go unlock2: `if !mutexSampleContention() || !unlock2Sampled(l) {`, `prev8 := atomic.Xchg8(key8(&l.key), 0)` */
		/* go unlock2Sampled: `v := atomic.Loaduintptr(&l.key)`, `if v&mutexMMask == 0 || v&mutexStackLocked != 0 {`, `return false` */
		if
		:: true -> release()
		:: true ->
			v = key;
			if
			:: mutexMFromKey(v) == 0 || (v & mutexStackLocked) != 0 -> v = 0; goto u_swap
			:: else -> goto u_cas
			fi
		fi
	}
	/* The walk to the bottom that blames the sleepers' waits reads only
	 * the links of Ms on the stack, whose lock the CAS takes: it shares
	 * the CAS's step, and writes only the profile's times. */
u_cas:
	atomic {        /* go unlock2Sampled: `next := (v | mutexStackLocked) &^ (mutexLocked | mutexSleeping)`, `if atomic.Casuintptr(&l.key, v, next) {`, `if v&mutexLocked == 0 {`, `unlock2Wake(l, true)` */
		if
		:: key == v ->
			key = (v | mutexStackLocked) & ~(mutexLocked | mutexSleeping);
			assert((v & mutexLocked) != 0 && stackOwner == 0);
			OWNED(owner == me);
			owner = 0;
			holders--;
			stackOwner = me;
			haveStackLock = true;
			v = 0;
			ret = R_UNLOCK;
			goto w_load
		:: else -> FAILED; goto u_load
		fi
	}
u_load:
	atomic {        /* go unlock2Sampled: `v = atomic.Loaduintptr(&l.key)`, `if v&mutexMMask == 0 || v&mutexStackLocked != 0 {`, `return false` */
		v = key;
		if
		:: mutexMFromKey(v) == 0 || (v & mutexStackLocked) != 0 -> v = 0; goto u_swap
		:: else -> goto u_cas
		fi
	}
u_swap:
	atomic {        /* go unlock2: `prev8 := atomic.Xchg8(key8(&l.key), 0)`, `unlock2Wake(l, false)` */
		release()
	}
#endif
}

/* ---- lock2's fast path --------------------------------------------------- */

inline fastPath() {
	atomic {        /* go lock2: `v8 := atomic.Xchg8(k8, mutexLocked)`, `if v8&mutexLocked == 0 {`, `if v8&mutexSleeping != 0 {`, `} else if v8&mutexSleeping != 0 {`, `lock2Slow(l)` */
		want[me] = true;
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked;
		if
		:: (old8 & mutexLocked) == 0 ->
			OWNED(owner == 0);
			owner = me;
			if
			:: (old8 & mutexSleeping) != 0 -> old8 = 0; goto f_or8
			:: else -> old8 = 0; goto f_check
			fi
#ifndef MUTANT_NO_RESTORE
		:: (old8 & mutexLocked) != 0 && (old8 & mutexSleeping) != 0 -> old8 = 0; restoring[me] = true; goto f_restore
		:: (old8 & mutexLocked) != 0 && (old8 & mutexSleeping) == 0 -> old8 = 0; goto s_first
#else
		:: (old8 & mutexLocked) != 0 -> old8 = 0; goto s_first     /* mutant: the hint a swap cleared stays cleared */
#endif
		fi
	}
f_or8:
	atomic {        /* go lock2: `atomic.Or8(k8, mutexSleeping)` */
		key = key | mutexSleeping;
		goto f_check
	}
f_check:
	atomic {        /* go lock2: `if *keyFlags8(&l.key)&(mutexHeir>>8) == 0 {`, `return` */
		if
#ifndef MUTANT_FAST_NOBACKOFF
		:: (key & mutexHeir) == 0 -> entered(); slowDone(); goto u_unlock
		:: else -> goto f_backoff
#else
		:: true -> entered(); slowDone(); goto u_unlock    /* mutant: enter whatever the claim */
#endif
		fi
	}
f_backoff:
	atomic {        /* go lock2: `if atomic.Xchg8(k8, 0)&mutexSleeping != 0 {`, `unlock2Wake(l, false)` */
		old8 = key & lowByte;
		key = key & ~lowByte;
		OWNED(owner == me);
		owner = 0;
		if
		:: (old8 & mutexSleeping) != 0 -> old8 = 0; haveStackLock = false; ret = R_FAST; goto w_load
		:: else -> old8 = 0; goto s_first
		fi
	}
f_restore:
	atomic {        /* go lock2: `atomic.Or8(k8, mutexSleeping)` */
		key = key | mutexSleeping;
		restoring[me] = false;
		goto s_first
	}
}

/* ---- lock2Slow ----------------------------------------------------------- */

/* lock2Slow's loop body from its top, with v just loaded: every local
 * decision up to the next shared access. */
inline decide() {
	if
	:: (v & mutexHeir) == 0 -> kicked = false
	:: else -> skip
	fi;
	if
	:: looks < LOOKS -> looks++
	:: else ->
		if
		:: passed < PASS -> passed = PASS
		:: else -> skip
		fi
	fi;
	if
	:: passed >= PASS && !heir && (v & mutexHeir) == 0 -> goto s_claim
	:: else ->
		if
		:: (v & mutexLocked) == 0 && heir -> goto s_heirswap
		:: (v & mutexLocked) == 0 && !heir && (v & mutexHeir) != 0 ->
			if
#ifndef MUTANT_NO_KICK
			:: !kicked && (v & mutexStackLocked) == 0 && mutexMFromKey(v) != 0 ->
				kicked = true; haveStackLock = false; ret = R_KICK; goto w_load
#endif
			:: else ->
				if
				:: (weSpin || atTail) && passed < PASS && i < SPIN + 1 -> goto s_reload
				:: else -> goto s_push
				fi
			fi
		:: (v & mutexLocked) == 0 && !heir && (v & mutexHeir) == 0 ->
			if
			:: weSpin -> goto s_spincas
			:: else -> goto s_swap
			fi
		:: (v & mutexLocked) != 0 ->
			if
			:: !weSpin && (v & mutexSpinning) == 0 && mutexMFromKey(v) == 0 -> goto s_spinbit
			:: else -> pollOrSleep()
			fi
		fi
	fi
}

/* Poll (and look again), or sleep. */
inline pollOrSleep() {
	if
	:: (weSpin || atTail || heir) && (passed < PASS || heir || (v & mutexHeir) == 0) && i < SPIN + 1 -> goto s_reload
	:: else -> goto s_push
	fi
}

/* mutexPassClaim's choice after each load of v. */
inline passDecide() {
	if
	:: mutexMFromKey(v) == 0 -> goto r_none
	:: mutexMFromKey(v) != 0 && (v & mutexStackLocked) != 0 -> goto r_wait
	:: mutexMFromKey(v) != 0 && (v & mutexStackLocked) == 0 -> goto r_take
	fi
}

/* mutexPassClaim's walk: the oldest starving M on v's stack. */
inline walk() {
	p = mutexMFromKey(v);
	do
	:: p == 0 -> break
	:: p != 0 ->
		if
#ifndef MUTANT_NAME_NEWEST
		:: starvingMark[p] -> heirNext = p
#else
		:: starvingMark[p] && heirNext == 0 -> heirNext = p     /* mutant: the newest starving M */
#endif
		:: else -> skip
		fi;
		p = nextwaitm[p]
	od
}

#define SPINBIT (weSpin -> mutexSpinning : 0)

/* The heir's CAS that ends mutexPassClaim gives up mutexSpinning if it has it. */
inline dropSpin() {
	if
	:: weSpin -> assert(spinOwner == me); spinOwner = 0
	:: else -> skip
	fi
}

#define MLOCALS \
	int  v, nv; \
	byte old8, i, passed, looks, ret, heirNext; \
	byte wakem, committed, passedBottom, headM, t, p, above, bottom; \
	bool weSpin, atTail, heir, slept, kicked, gift, haveStackLock

#ifdef CRASH
proctype M(byte me) provided (_pid != m1pid || !intr)
#else
proctype M(byte me)
#endif
{
	MLOCALS;
#ifndef FOREVER
	byte rounds;
#endif

lock2:
	fastPath();

	/* No M of the model is on the crash path (the handler of -DCRASH
	 * is). */
s_first:
	atomic {        /* go lock2Slow: `if mutexOnCrashPath(mp, gp, l) {`, `v := atomic.Loaduintptr(&l.key)`, `for i := 0; ; i++ {` */
		v = key;
		decide()
	}
s_reload:
	atomic {        /* go lock2Slow: `v = atomic.Loaduintptr(&l.key)`, `continue tryAcquire`, `mutexPoll(i, spin)`, `if v&mutexHeir == 0 {`, `kicked = false`, `if looks < mutexStarveLooks {`, `} else if passed < mutexStarvePasses {`, `passed = mutexStarvePasses` */
		INC(i, SPIN + 1);
		v = key;
		decide()
	}
s_claim:
	atomic {        /* go lock2Slow: `if passed >= mutexStarvePasses && !heir && v&mutexHeir == 0 {`, `if atomic.Or32(keyLow32(&l.key), mutexHeir)&mutexHeir == 0 {`, `heir = true`, `mp.mWaitList.heir = true` */
		if
#ifndef MUTANT_CLAIM_NOCHECK
		:: (key & mutexHeir) == 0 -> key = key | mutexHeir; heirEvent()
		:: else -> FAILED       /* another M claimed first: a race lost */
#else
		:: true -> key = key | mutexHeir; heirMark[me] = true; isHeir[me] = true; heir = true     /* mutant: every claimer is the heir */
#endif
		fi;
		goto s_reload
	}
s_heirswap:
	atomic {        /* go lock2Slow: `if v&mutexLocked == 0 && heir {`, `if atomic.Xchg8(k8, mutexLocked|mutexSleeping)&mutexLocked == 0 {` */
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked | mutexSleeping;
		if
#ifndef MUTANT_HEIR_NOCHECK
		:: (old8 & mutexLocked) == 0 -> OWNED(owner == 0); owner = me; old8 = 0; entered(); goto r_load
		:: else -> old8 = 0; goto s_reload     /* a fast path's swap took l, or the crash path */
#else
		:: true -> owner = me; old8 = 0; entered(); goto r_load  /* mutant: the heir ignores its swap's result */
#endif
		fi
	}
s_spincas:
	atomic {        /* go lock2Slow: `next := (v &^ mutexSpinning) | mutexSleeping | mutexLocked`, `if next&mutexMMask == 0 {`, `next = next &^ mutexSleeping`, `if atomic.Casuintptr(&l.key, v, next) {`, `passed++` */
		nv = (v & ~mutexSpinning) | mutexSleeping | mutexLocked;
		if
		:: mutexMFromKey(nv) == 0 -> nv = nv & ~mutexSleeping
		:: else -> skip
		fi;
		if
		:: key == v ->
			key = nv;
			OWNED(owner == 0);
			owner = me;
			assert(spinOwner == me);
			spinOwner = 0;
			entered();
			slowDone();
			goto u_unlock
		:: else -> FAILED; nv = 0; INC(passed, PASS); goto s_reload
		fi
	}
s_swap:
	atomic {        /* go lock2Slow: `prev8 := atomic.Xchg8(k8, mutexLocked|mutexSleeping)`, `if prev8&mutexLocked == 0 {`, `passed++` */
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked | mutexSleeping;
		if
		:: (old8 & mutexLocked) == 0 -> OWNED(owner == 0); owner = me; old8 = 0; goto s_check
		:: else -> old8 = 0; INC(passed, PASS); goto s_reload
		fi
	}
s_check:
	atomic {        /* go lock2Slow: `if *keyFlags8(&l.key)&(mutexHeir>>8) == 0 {`, `break tryAcquire` */
		if
		:: (key & mutexHeir) == 0 -> entered(); slowDone(); goto u_unlock
		:: else -> goto s_backoff
		fi
	}
s_backoff:
	atomic {        /* go lock2Slow: `if atomic.Xchg8(k8, 0)&mutexSleeping != 0 {`, `unlock2Wake(l, false)`, `passed++` */
		old8 = key & lowByte;
		key = key & ~lowByte;
		OWNED(owner == me);
		owner = 0;
		if
		:: (old8 & mutexSleeping) != 0 -> old8 = 0; haveStackLock = false; ret = R_SLOW; goto w_load
		:: else -> old8 = 0; INC(passed, PASS); goto s_reload
		fi
	}
s_spinbit:
	atomic {        /* go lock2Slow: `if !weSpin && v&mutexSpinning == 0 && v&mutexMMask == 0 && atomic.Casuintptr(&l.key, v, v|mutexSpinning) {`, `v |= mutexSpinning`, `weSpin = true` */
		if
		:: key == v ->
			key = v | mutexSpinning;
			v = v | mutexSpinning;
			assert(spinOwner == 0);
			spinOwner = me;
			weSpin = true
		:: else -> FAILED
		fi;
		pollOrSleep()
	}
	/* mutexPushed writes the M's link and count, and lock2Slow its
	 * starving mark, before the CAS; nobody reads them unless the CAS
	 * publishes the M, so the stores share the CAS's step (and a CAS that
	 * fails leaves them as they were). */
s_push:
	atomic {        /* go lock2Slow: `if v&mutexLocked == 0 && v&mutexHeir == 0 {`, `mp.mWaitList.starving = passed >= mutexStarvePasses || slept && passed >= mutexStarvePasses-1`, `if mutexSleepOnStack(l, v, weSpin) {`, `v = atomic.Loaduintptr(&l.key)` */
		/* go mutexSleepOnStack: `mp.mWaitList.inWait = true`, `pushed := atomic.Casuintptr(&l.key, v, mutexPushed(v, mp, giveUpSpin))` */
		/* go mutexPushed: `mp.nextwaitm.set(mutexMFromKey(v))`, `mp.mWaitList.topWakes = 0`, `next := v&^mutexMMask | mutexPartialM(mp) | mutexSleeping`, `next &^= mutexSpinning` */
		assert((v & mutexLocked) != 0 || (v & mutexHeir) != 0);
		if
		:: key == v ->
			assert(!onStack[me]);
			nextwaitm[me] = mutexMFromKey(v);
			topWakes[me] = 0;
			starvingMark[me] = (passed >= PASS || (slept && passed >= PASS - 1));
			passedOver[me] = 0;
#ifndef MUTANT_PUSH_NOHINT
			nv = (v & flagBits) | mutexPartialM(me) | mutexSleeping;
#else
			nv = (v & flagBits) | mutexPartialM(me);        /* mutant: the push sets no hint */
#endif
			if
			:: weSpin -> nv = nv & ~mutexSpinning; assert(spinOwner == me); spinOwner = 0; weSpin = false
			:: else -> skip
			fi;
			key = nv;
			nv = 0;
			onStack[me] = true;
			goto s_sleep
		:: else -> FAILED; goto s_reload        /* not a pass */
		fi
	}
	/* semasleep(-1): it waits until its count is above zero and takes one
	 * wakeup (its decrement, its futexsleep and its load share a step:
	 * only this M takes from its count; msema.pml checks that the futex
	 * code is such a count). */
s_sleep:
	atomic {        /* go mutexSleepOnStack: `semasleep(-1)`, `mp.mWaitList.inWait = false`, `return pushed` */
		/* go semasleep: `if int32(atomic.Xadd(&mp.waitsema, -1)) >= 0 {`, `futexsleep(&mp.waitsema, waitsemaAsleep, ns)`, `if int32(atomic.Load(&mp.waitsema)) >= 0 {` */
		/* go lock2Slow: `if slept && passed < mutexStarvePasses {`, `slept = true`, `atTail = mp.nextwaitm == 0`, `weSpin = mp.mWaitList.gift`, `heir = mp.mWaitList.heir`, `kicked = false` */
		waitsema[me] > 0 ->
		waitsema[me]--;
		assert(!onStack[me]);           /* woken only once taken off */
		if
		:: slept && passed < PASS -> passed++
		:: else -> skip
		fi;
		slept = true;
		atTail = (nextwaitm[me] == 0);
		weSpin = giftMark[me];
		giftMark[me] = false;
		assert(!weSpin || spinOwner == me);
		heir = heirMark[me];
		kicked = false;
		goto s_woken
	}
	/* The wake's load serves both the count of a wake after which l is
	 * held and the next pass of the loop. */
s_woken:
	atomic {        /* go lock2Slow: `i = 0`, `v = atomic.Loaduintptr(&l.key)`, `if v&mutexLocked != 0 && passed < mutexStarvePasses {`, `mp.nextwaitm = 0` */
		v = key;
		if
		:: (v & mutexLocked) != 0 && passed < PASS -> passed++
		:: else -> skip
		fi;
		nextwaitm[me] = 0;
		i = 1;
		decide()
	}

	/* ---- mutexPassClaim: the heir holds l ---- */
	/* The heir's mark is read only while it sleeps on the stack: its store
	 * shares the step of mutexPassClaim's first load. */
r_load:
	atomic {        /* go lock2Slow: `mp.mWaitList.heir = false`, `mutexPassClaim(l, weSpin)` */
		/* go mutexPassClaim: `spinning = mutexSpinning`, `v := atomic.Loaduintptr(&l.key)` */
		heirMark[me] = false;
		isHeir[me] = false;
		heir = false;
		v = key;
		passDecide()
	}
r_reload:
	atomic {        /* go mutexPassClaim: `v = atomic.Loaduintptr(&l.key)` */
		v = key;
		passDecide()
	}
r_none:
	atomic {        /* go mutexPassClaim: `if v&mutexMMask == 0 {`, `if atomic.Casuintptr(&l.key, v, v&^(mutexHeir|spinning)) {` */
		if
		:: key == v -> key = v & ~(mutexHeir | SPINBIT); dropSpin(); slowDone(); goto u_unlock
		:: else -> FAILED; goto r_reload
		fi
	}
	/* The heir yields to the owner of the stack lock, and looks again, up
	 * to mutexPassClaimTries times; then it gives up. The model does not
	 * count the yields: a yield after which the word is the same changes
	 * nothing, so the heir waits for the word to change, or gives up at
	 * any time (every bound, from none to the owner's release). */
r_wait:
	atomic {        /* go mutexPassClaim: `} else if v&mutexStackLocked != 0 {`, `if tries >= mutexPassClaimTries {`, `tries++`, `osyield()`, `v = atomic.Loaduintptr(&l.key)`, `if atomic.Casuintptr(&l.key, v, v&^(mutexHeir|spinning)) {` */
		if
		:: key != v -> v = key; passDecide()   /* a yield, and the load after it */
#ifndef MUTANT_NEVER_GIVEUP
		:: key == v ->                          /* the give-up's CAS */
#ifndef MUTANT_GIVEUP_CLEARS_STACKLOCK
			key = v & ~(mutexHeir | SPINBIT);
#else
			key = v & ~(mutexStackLocked | mutexHeir | SPINBIT);   /* mutant: it clears the owner's stack lock too */
#endif
			FAILED;         /* a race lost to the owner of the stack lock */
			dropSpin();
			slowDone();
			goto u_unlock
		:: key != v -> FAILED; goto r_reload   /* the give-up's CAS fails */
#endif
		fi
	}
r_take:
	atomic {        /* go mutexPassClaim: `} else if atomic.Casuintptr(&l.key, v, v|mutexStackLocked) {`, `v |= mutexStackLocked`, `if next == nil {`, `if p.mWaitList.starving {`, `next = p` */
		if
		:: key == v ->
			key = v | mutexStackLocked;
			v = v | mutexStackLocked;
			assert(stackOwner == 0);
			stackOwner = me;
			walk();
			goto r_cas
		:: else -> FAILED; goto r_reload
		fi
	}
	/* The named M's mark is read only by the owner of the stack lock,
	 * which the heir holds: its store shares the step of the CAS. */
r_cas:
	atomic {        /* go mutexPassClaim: `next.mWaitList.heir = true`, `nv := v &^ (mutexStackLocked | spinning)`, `nv &^= mutexHeir`, `if atomic.Casuintptr(&l.key, v, nv) {` */
		nv = v & ~(mutexStackLocked | SPINBIT);
#ifndef MUTANT_PASS_CLEARS
		if
		:: heirNext == 0 -> nv = nv & ~mutexHeir
		:: else -> skip
		fi;
#else
		nv = nv & ~mutexHeir;                   /* mutant: it names an heir and ends the claim */
#endif
		if
		:: key == v ->
			key = nv;
			assert(stackOwner == me);
			stackOwner = 0;
			dropSpin();
			if
			:: heirNext != 0 -> designate(heirNext)
			:: else -> skip
			fi;
			p = 0;
			slowDone();
			goto u_unlock
		:: else -> FAILED; nv = 0; goto r_casload
		fi
	}
r_casload:
	atomic {        /* go mutexPassClaim: `v = atomic.Loaduintptr(&l.key)`, `for p := mutexMFromKey(v); p != nil; p = p.nextwaitm.ptr() {` */
		v = key;
		if
		:: heirNext == 0 -> walk()
		:: else -> skip
		fi;
		goto r_cas
	}

u_unlock:
	unlockCode();
w_load:
	wakeCode();

unlocked:
#ifdef FOREVER
	goto lock2
#else
	atomic {        /* model: the M locks again, or is done */
		rounds++;
		if
		:: rounds < ROUNDS -> goto lock2
		:: else -> done++
		fi
	}
#endif
}

/* ---- the crash path ----------------------------------------------------- */

#ifdef CRASH
#ifndef MUTANT_CRASH_OBEYS_HEIR
#define CRASHFREE ((key & mutexLocked) == 0)
#else
#define CRASHFREE ((key & (mutexLocked | mutexHeir)) == 0)     /* mutant: the crash path waits for the heir */
#endif
/* A signal handler on M 1 that takes l once, on the crash path, at any
 * moment of M 1's life but while M 1 holds l; M 1 takes no step until it
 * returns. Its lock2 and unlock2 are an M's. */
proctype H() {
	MLOCALS;
	byte me = HID;

	atomic { owner != 1 -> intr = true }    /* model: the signal arrives */

lock2:
	fastPath();

s_first:
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
			want[me] = false;
			goto u_unlock
		:: else -> old8 = 0; goto h_poll
		fi
	}

u_unlock:
	unlockCode();
w_load:
	wakeCode();

unlocked:
s_reload:
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

/* ---- progress -------------------------------------------------------------- */

#if NM >= 3
#define LIVE3(x) && (x[3] -> <> !x[3])
#else
#define LIVE3(x)
#endif
#ifndef FOREVER
/* every M finishes its acquisitions */
ltl terminates { <> (done == NM) }
#endif
/* every M that calls lock2 enters */
ltl live { [] ((want[1] -> <> !want[1]) && (want[2] -> <> !want[2]) LIVE3(want)) }
/* every heir enters */
ltl heirlive { [] ((isHeir[1] -> <> !isHeir[1]) && (isHeir[2] -> <> !isHeir[2]) LIVE3(isHeir)) }
#ifdef LIVEF
/* every M that calls lock2 enters, if the Ms lose only finitely many races */
ltl livef { ((<>[] failTick) || (<>[] !failTick)) -> [] ((want[1] -> <> !want[1]) && (want[2] -> <> !want[2]) LIVE3(want)) }
#endif
