/**
 * The bookings task's held-out acceptance suite: never shown to an agent, run by `baton eval`
 * against the delivered project on a fresh, migrated database (DATABASE_URL). Every test books
 * its own rooms (a run prefix plus the test's own names), so the tests can share one database.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import process from 'node:process';
import pg from 'pg';
import * as bookings from '../src/bookings.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 3 });
const run = `h${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const DAY = '2031-05-12';
/** An instant on DAY (or `day`), UTC: at('09:30') is '2031-05-12T09:30:00.000Z'. */
const at = (hhmm, day = DAY) => `${day}T${hhmm}:00.000Z`;
const slot = (from, to) => ({ start: at(from), end: at(to) });

async function room(suffix) {
  const id = `${run}-${suffix}`;
  await bookings.addRoom(pool, { id, name: `Room ${suffix}` });
  return id;
}
const book = (roomId, from, to, who = 'someone') => bookings.book(pool, { room: roomId, start: at(from), end: at(to), who });

describe('room bookings (held out)', () => {
  after(() => pool.end());

  it('books a room and returns the booking with a numeric id and UTC ISO times', async () => {
    const r = await room('basic');
    const b = await bookings.book(pool, { room: r, start: at('09:00'), end: at('10:30'), who: 'Ines' });
    assert.equal(typeof b.id, 'number');
    assert.deepEqual({ ...b, id: 0 }, { id: 0, room: r, start: at('09:00'), end: at('10:30'), who: 'Ines' });
  });

  it('takes Date objects and strings with other offsets as the same instants', async () => {
    const r = await room('offset');
    const b = await bookings.book(pool, { room: r, start: new Date(at('11:00')), end: `${DAY}T14:00:00+02:00`, who: 'Ola' });
    assert.equal(b.start, at('11:00'));
    assert.equal(b.end, at('12:00'));
    await assert.rejects(bookings.book(pool, { room: r, start: `${DAY}T13:30:00+02:00`, end: `${DAY}T14:30:00+02:00`, who: 'Pia' }), { name: 'OverlapError' });
  });

  it('refuses a booking that overlaps the start or the end of another in the same room', async () => {
    const r = await room('overlap');
    await book(r, '10:00', '11:00');
    await assert.rejects(book(r, '09:30', '10:01'), { name: 'OverlapError', room: r });
    await assert.rejects(book(r, '10:59', '12:00'), { name: 'OverlapError', room: r });
    assert.deepEqual(await bookings.freeSlots(pool, r, DAY), [slot('08:00', '10:00'), slot('11:00', '18:00')]);
  });

  it('refuses a booking inside another or around another', async () => {
    const r = await room('nest');
    await book(r, '12:00', '15:00');
    await assert.rejects(book(r, '13:00', '14:00'), { name: 'OverlapError' });
    await assert.rejects(book(r, '11:00', '16:00'), { name: 'OverlapError' });
    await assert.rejects(book(r, '12:00', '15:00'), { name: 'OverlapError' });
  });

  it('allows bookings that only touch: one ending when the next starts', async () => {
    const r = await room('adjacent');
    await book(r, '10:00', '11:00');
    await book(r, '11:00', '12:00');
    await book(r, '09:00', '10:00');
    assert.deepEqual(await bookings.freeSlots(pool, r, DAY), [slot('08:00', '09:00'), slot('12:00', '18:00')]);
  });

  it('allows the same interval in another room', async () => {
    const r1 = await room('twin1');
    const r2 = await room('twin2');
    await book(r1, '14:00', '15:00');
    const b = await book(r2, '14:00', '15:00');
    assert.equal(b.room, r2);
  });

  it('refuses an interval whose end equals its start with InvalidIntervalError', async () => {
    const r = await room('empty');
    await assert.rejects(book(r, '10:00', '10:00'), { name: 'InvalidIntervalError' });
    assert.deepEqual(await bookings.freeSlots(pool, r, DAY), [slot('08:00', '18:00')]);
  });

  it('refuses an interval whose end is before its start with InvalidIntervalError', async () => {
    const r = await room('backwards');
    await assert.rejects(book(r, '15:00', '13:00'), { name: 'InvalidIntervalError' });
    assert.deepEqual(await bookings.freeSlots(pool, r, DAY), [slot('08:00', '18:00')]);
  });

  it('refuses times that are not times with InvalidIntervalError', async () => {
    const r = await room('garbage');
    await assert.rejects(bookings.book(pool, { room: r, start: 'tomorrow morning', end: at('10:00'), who: 'x' }), { name: 'InvalidIntervalError' });
    await assert.rejects(bookings.book(pool, { room: r, start: at('09:00'), end: undefined, who: 'x' }), { name: 'InvalidIntervalError' });
  });

  it('refuses a booking of an unknown room with UnknownRoomError', async () => {
    await assert.rejects(bookings.book(pool, { room: `${run}-nowhere`, start: at('09:00'), end: at('10:00'), who: 'x' }), { name: 'UnknownRoomError', room: `${run}-nowhere` });
  });

  it('frees the slot when a booking is cancelled, so it can be booked again', async () => {
    const r = await room('cancel');
    const b = await book(r, '13:00', '14:00', 'first');
    await bookings.cancel(pool, b.id);
    assert.deepEqual(await bookings.freeSlots(pool, r, DAY), [slot('08:00', '18:00')]);
    const again = await book(r, '13:00', '14:00', 'second');
    assert.equal(again.who, 'second');
  });

  it('refuses to cancel an unknown booking or the same booking twice with UnknownBookingError', async () => {
    const r = await room('cancel2');
    const b = await book(r, '08:00', '09:00');
    await bookings.cancel(pool, b.id);
    await assert.rejects(bookings.cancel(pool, b.id), { name: 'UnknownBookingError', id: b.id });
    await assert.rejects(bookings.cancel(pool, 987654321), { name: 'UnknownBookingError', id: 987654321 });
  });

  it('lists the whole opening day as free when nothing is booked', async () => {
    const r = await room('free');
    assert.deepEqual(await bookings.freeSlots(pool, r, DAY), [slot('08:00', '18:00')]);
  });

  it('lists the free slots between bookings in time order, whatever order they were made in', async () => {
    const r = await room('order');
    await book(r, '15:00', '16:00');
    await book(r, '09:00', '10:00');
    await book(r, '12:00', '12:30');
    assert.deepEqual(await bookings.freeSlots(pool, r, DAY), [
      slot('08:00', '09:00'),
      slot('10:00', '12:00'),
      slot('12:30', '15:00'),
      slot('16:00', '18:00'),
    ]);
  });

  it('clips bookings that run past the opening hours, including one from the night before', async () => {
    const r = await room('clip');
    await bookings.book(pool, { room: r, start: '2031-05-11T22:00:00.000Z', end: at('09:00'), who: 'night' });
    await book(r, '17:30', '20:00');
    assert.deepEqual(await bookings.freeSlots(pool, r, DAY), [slot('09:00', '17:30')]);
  });

  it('lists no free slot on a fully booked day and none of zero length', async () => {
    const r = await room('full');
    await book(r, '08:00', '13:00');
    await book(r, '13:00', '18:00');
    assert.deepEqual(await bookings.freeSlots(pool, r, DAY), []);
  });

  it('ignores other rooms, other days and cancelled bookings in the free slots', async () => {
    const r = await room('mine');
    const other = await room('theirs');
    await book(other, '10:00', '12:00');
    await bookings.book(pool, { room: r, start: at('10:00', '2031-05-13'), end: at('12:00', '2031-05-13'), who: 'tomorrow' });
    const gone = await book(r, '14:00', '15:00');
    await bookings.cancel(pool, gone.id);
    assert.deepEqual(await bookings.freeSlots(pool, r, DAY), [slot('08:00', '18:00')]);
  });

  it('refuses the free slots of an unknown room with UnknownRoomError', async () => {
    await assert.rejects(bookings.freeSlots(pool, `${run}-ghost`, DAY), { name: 'UnknownRoomError' });
  });

  it('lets exactly one of two bookings of the same slot made at the same time win', async () => {
    // Six races at once: one race can happen to run its bookings one after the other, six cannot all.
    const rooms = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => room(`race-${n}`)));
    await Promise.all([1, 2, 3].map(() => pool.query('SELECT 1')));
    const races = await Promise.all(rooms.map((r) => Promise.allSettled([book(r, '10:00', '11:00', 'a'), book(r, '10:00', '11:00', 'b')])));
    for (const results of races) {
      assert.equal(results.filter((x) => x.status === 'fulfilled').length, 1);
      assert.equal(results.find((x) => x.status === 'rejected')?.reason?.name, 'OverlapError');
    }
    assert.deepEqual(await bookings.freeSlots(pool, rooms[0], DAY), [slot('08:00', '10:00'), slot('11:00', '18:00')]);
  });

  it('lets exactly one of several overlapping bookings made at the same time win', async () => {
    const rooms = await Promise.all([1, 2, 3, 4].map((n) => room(`race2-${n}`)));
    await Promise.all([1, 2, 3].map(() => pool.query('SELECT 1')));
    // Every pair of these overlaps (all hold 14:00 to 14:30); four rooms race at once.
    const races = await Promise.all(
      rooms.map((r) => Promise.allSettled([book(r, '13:00', '15:00', 'a'), book(r, '14:00', '16:00', 'b'), book(r, '13:30', '14:30', 'c')])),
    );
    for (const results of races) {
      assert.equal(results.filter((x) => x.status === 'fulfilled').length, 1);
      assert.deepEqual(results.filter((x) => x.status === 'rejected').map((x) => x.reason?.name), ['OverlapError', 'OverlapError']);
    }
  });
});
