// The Argon2 algorithm (RFC 9106) on our BLAKE2b engine and the BlaMka kernel.
// SPDX-License-Identifier: Apache-2.0
#include "argon2.hpp"
#include "baseline_guard.hpp"

#include <pthread.h>
#include <sys/mman.h>

#include <atomic>
#include <cstring>

#include "blake2_engine.hpp"
#include "core_memory.hpp"
#include "scrub.hpp"

namespace blake2simd::argon2 {
namespace {

constexpr size_t kPrehashBytes = 64;
constexpr size_t kHashBytes = kBlake2bMaxDigestBytes;
constexpr size_t kAddressesPerBlock = kArgon2BlockWords;
// Threads a derivation starts besides the caller's, at most: `threads` above this still gets
// its answer, on fewer threads (a slice then takes more than one round of lanes per thread).
constexpr uint32_t kMaxHelperThreads = 255;
constexpr size_t kHelperStackBytes = 256 * 1024;  // a segment's fill needs a few KiB

struct Block {
    uint64_t v[kArgon2BlockWords];
};

void store32(uint8_t* p, uint32_t value) noexcept {
    for (size_t i = 0; i < 4; ++i) {
        p[i] = static_cast<uint8_t>(value >> (8 * i));
    }
}

void load_block(Block& block, const uint8_t* bytes) noexcept {
    for (size_t i = 0; i < kArgon2BlockWords; ++i) {
        block.v[i] = family_detail::load_le<uint64_t>(bytes + 8 * i);
    }
}

void store_block(uint8_t* bytes, const Block& block) noexcept {
    for (size_t i = 0; i < kArgon2BlockWords; ++i) {
        for (size_t k = 0; k < 8; ++k) {
            bytes[8 * i + k] = static_cast<uint8_t>(block.v[i] >> (8 * k));
        }
    }
}

// BLAKE2b of the parts' concatenation with an `out_size`-byte digest (1..64).
void hash_parts(Blake2bFamily::Compress compress, uint8_t* out, size_t out_size, const Bytes* parts,
                size_t part_count) noexcept {
    Blake2bParameterBlock parameter_block;
    parameter_block.digest_length = static_cast<uint8_t>(out_size);
    Blake2bEngine engine;
    engine.start(compress, parameter_block);
    for (size_t i = 0; i < part_count; ++i) {
        engine.update(parts[i].data, parts[i].size);
    }
    engine.finish(out);
    cleanse(&engine, sizeof engine);
}

// The sizes RFC 9106 section 3.4 derives from the job: m' blocks, q per lane, q / 4 per slice.
struct Layout {
    uint32_t lanes;
    uint32_t lane_length;
    uint32_t segment_length;
    uint32_t memory_blocks;
};

Layout layout_of(const Job& job) noexcept {
    const uint32_t segment_length = job.memcost / (job.lanes * kSyncPoints);
    return {job.lanes, segment_length * kSyncPoints, segment_length,
            segment_length * kSyncPoints * job.lanes};
}

struct Instance {
    const Job& job;
    const Engines& engines;
    Layout layout;
    Block* memory;
};

struct Position {
    uint32_t pass;
    uint32_t lane;
    uint32_t slice;
};

// The column of the reference block (RFC 9106 section 3.4.2): J1 maps non-uniformly onto the
// blocks this one may reference, those of the finished slices and of its own segment so far.
uint32_t reference_column(const Layout& layout, const Position& at, uint32_t index, uint32_t j1,
                          bool same_lane) noexcept {
    uint32_t area = 0;
    if (at.pass == 0) {
        area = at.slice * layout.segment_length;
    } else {
        area = layout.lane_length - layout.segment_length;
    }
    area = same_lane ? area + index - 1 : area - (index == 0 ? 1 : 0);
    uint64_t relative = j1;
    relative = relative * relative >> 32;
    relative = area - 1 - (uint64_t{area} * relative >> 32);
    const uint32_t start =
        at.pass == 0 || at.slice == kSyncPoints - 1 ? 0 : (at.slice + 1) * layout.segment_length;
    return static_cast<uint32_t>((start + relative) % layout.lane_length);
}

// The data-independent addresses (Argon2i, Argon2id's first half pass): G(0, G(0, Z)) of the
// counter block Z = (pass, lane, slice, m', t, type, counter, 0, ...).
struct AddressMaker {
    Block input{};
    Block addresses{};

    AddressMaker(const Instance& instance, const Position& at) noexcept {
        input.v[0] = at.pass;
        input.v[1] = at.lane;
        input.v[2] = at.slice;
        input.v[3] = instance.layout.memory_blocks;
        input.v[4] = instance.job.passes;
        input.v[5] = static_cast<uint32_t>(instance.job.type);
    }
    void next(FillBlockFn fill_block) noexcept {
        static constexpr Block kZero{};
        ++input.v[6];
        fill_block(addresses.v, kZero.v, input.v, false);
        const Block first = addresses;
        fill_block(addresses.v, kZero.v, first.v, false);
    }
};

bool independent_addressing(Type type, const Position& at) noexcept {
    return type == Type::i || (type == Type::id && at.pass == 0 && at.slice < kSyncPoints / 2);
}

void fill_segment(const Instance& instance, const Position& at) noexcept {
    const Layout& layout = instance.layout;
    const FillBlockFn fill_block = instance.engines.fill_block;
    const bool independent = independent_addressing(instance.job.type, at);
    AddressMaker maker(instance, at);
    const uint32_t first = at.pass == 0 && at.slice == 0 ? 2 : 0;
    if (independent && first != 0) {
        maker.next(fill_block);
    }
    // Version 0x10 overwrites every block; 0x13 XORs the later passes into the old block.
    const bool xor_into_next = instance.job.version != kVersion10 && at.pass != 0;
    Block* lane = instance.memory + size_t{at.lane} * layout.lane_length;
    for (uint32_t index = first; index < layout.segment_length; ++index) {
        const uint32_t column = at.slice * layout.segment_length + index;
        const Block& previous = lane[column == 0 ? layout.lane_length - 1 : column - 1];
        uint64_t pseudo_random = 0;
        if (independent) {
            if (index % kAddressesPerBlock == 0) {
                maker.next(fill_block);
            }
            pseudo_random = maker.addresses.v[index % kAddressesPerBlock];
        } else {
            pseudo_random = previous.v[0];
        }
        const uint32_t reference_lane =
            at.pass == 0 && at.slice == 0
                ? at.lane
                : static_cast<uint32_t>((pseudo_random >> 32) % layout.lanes);
        const uint32_t reference = reference_column(
            layout, at, index, static_cast<uint32_t>(pseudo_random), reference_lane == at.lane);
        const Block& referenced =
            instance.memory[size_t{reference_lane} * layout.lane_length + reference];
        fill_block(lane[column].v, previous.v, referenced.v, xor_into_next);
    }
}

// H0 (RFC 9106 section 3.2).
void prehash(const Job& job, Blake2bFamily::Compress compress, uint32_t out_size,
             uint8_t (&h0)[kPrehashBytes]) noexcept {
    uint8_t numbers[6][4];
    const uint32_t values[6] = {job.lanes,  out_size,    job.memcost,
                                job.passes, job.version, static_cast<uint32_t>(job.type)};
    for (size_t i = 0; i < 6; ++i) {
        store32(numbers[i], values[i]);
    }
    uint8_t lengths[4][4];
    store32(lengths[0], static_cast<uint32_t>(job.pass.size));
    store32(lengths[1], static_cast<uint32_t>(job.salt.size));
    store32(lengths[2], static_cast<uint32_t>(job.secret.size));
    store32(lengths[3], static_cast<uint32_t>(job.ad.size));
    const Bytes parts[] = {{numbers[0], sizeof numbers},
                           {lengths[0], 4},
                           job.pass,
                           {lengths[1], 4},
                           job.salt,
                           {lengths[2], 4},
                           job.secret,
                           {lengths[3], 4},
                           job.ad};
    hash_parts(compress, h0, sizeof h0, parts, sizeof parts / sizeof parts[0]);
}

// B[i][0] and B[i][1] of every lane: H'^1024(H0 || LE32(column) || LE32(lane)).
void fill_first_blocks(const Instance& instance, const uint8_t (&h0)[kPrehashBytes]) noexcept {
    uint8_t seed[kPrehashBytes + 8];
    uint8_t bytes[kBlockBytes];
    std::memcpy(seed, h0, kPrehashBytes);
    for (uint32_t lane = 0; lane < instance.layout.lanes; ++lane) {
        for (uint32_t column = 0; column < 2; ++column) {
            store32(seed + kPrehashBytes, column);
            store32(seed + kPrehashBytes + 4, lane);
            const Bytes part{seed, sizeof seed};
            variable_length_hash(instance.engines.blake2b, bytes, sizeof bytes, &part, 1);
            load_block(instance.memory[size_t{lane} * instance.layout.lane_length + column], bytes);
        }
    }
    cleanse(seed, sizeof seed);
    cleanse(bytes, sizeof bytes);
}

// The XOR of every lane's last block, hashed to the output.
void finalize(const Instance& instance, uint8_t* out, size_t out_size) noexcept {
    const Layout& layout = instance.layout;
    Block last = instance.memory[layout.lane_length - 1];
    for (uint32_t lane = 1; lane < layout.lanes; ++lane) {
        const Block& other =
            instance.memory[size_t{lane} * layout.lane_length + layout.lane_length - 1];
        for (size_t i = 0; i < kArgon2BlockWords; ++i) {
            last.v[i] ^= other.v[i];
        }
    }
    uint8_t bytes[kBlockBytes];
    store_block(bytes, last);
    const Bytes part{bytes, sizeof bytes};
    variable_length_hash(instance.engines.blake2b, out, out_size, &part, 1);
    cleanse(&last, sizeof last);
    cleanse(bytes, sizeof bytes);
}

// Where the caller and its helpers meet after every slice (a slice reads blocks the others wrote
// in the slices before it). A member that arrives early polls first: the lanes are equal work,
// so the others are usually moments away, and a thread that sleeps has to be woken, on a virtual
// machine its idle CPU with it. Past the polling budget it sleeps on a condition variable. No
// lock is held while a member waits or works.
class Meeting {
  public:
    Meeting() noexcept = default;
    Meeting(const Meeting&) = delete;
    Meeting& operator=(const Meeting&) = delete;
    ~Meeting() {
        pthread_cond_destroy(&m_wake);
        pthread_mutex_destroy(&m_mutex);
    }

    // Sets how many meet, once every helper that could start has started; they wait for it.
    void open(uint32_t members) noexcept {
        pthread_mutex_lock(&m_mutex);
        m_members = members;
        pthread_mutex_unlock(&m_mutex);
        release(0);
    }
    void wait_open() noexcept { wait_past(0); }
    // Read after open() (the caller) or wait_open() (a helper), which publish it.
    [[nodiscard]] uint32_t members() const noexcept { return m_members; }

    void arrive_and_wait() noexcept {
        const uint32_t round = m_round.load(std::memory_order_acquire);
        pthread_mutex_lock(&m_mutex);
        const bool last = ++m_arrived == m_members;
        if (last) {
            m_arrived = 0;
        }
        pthread_mutex_unlock(&m_mutex);
        if (last) {
            release(round);
        } else {
            wait_past(round);
        }
    }

  private:
    // sched_yield, not a busy loop: a member polling for one that lost its CPU hands it over.
    // Some tens of milliseconds at most (a slice at 64 MiB takes a few): with 2048 polls the
    // caller still slept at every slice when the helper's CPU ran a little slower, and each
    // wake-up cost more than the wait (bench/README.md, Argon2).
    static constexpr uint32_t kPolls = 32768;

    void release(uint32_t round) noexcept {
        pthread_mutex_lock(&m_mutex);
        m_round.store(round + 1, std::memory_order_release);
        pthread_cond_broadcast(&m_wake);
        pthread_mutex_unlock(&m_mutex);
    }
    void wait_past(uint32_t round) noexcept {
        for (uint32_t poll = 0; poll < kPolls; ++poll) {
            if (m_round.load(std::memory_order_acquire) != round) {
                return;
            }
            sched_yield();
        }
        pthread_mutex_lock(&m_mutex);
        while (m_round.load(std::memory_order_acquire) == round) {
            pthread_cond_wait(&m_wake, &m_mutex);
        }
        pthread_mutex_unlock(&m_mutex);
    }

    pthread_mutex_t m_mutex = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t m_wake = PTHREAD_COND_INITIALIZER;
    uint32_t m_members = 1;
    uint32_t m_arrived = 0;
    std::atomic<uint32_t> m_round{0};
};

// The caller (member 0) and its helpers: member m fills lanes m, m + members, ... of every slice,
// so a lane stays on one thread (and its cache) from slice to slice. The helpers start once per
// derivation, not per slice, and end with it. The lanes of a slice are independent, so the answer
// never depends on how many members there are.
struct Crew {
    const Instance& instance;
    Meeting meeting;
};

struct Seat {
    Crew* crew;
    uint32_t member;
};

void fill_share(Crew& crew, uint32_t member) noexcept {
    const Instance& instance = crew.instance;
    for (uint32_t pass = 0; pass < instance.job.passes; ++pass) {
        for (uint32_t slice = 0; slice < kSyncPoints; ++slice) {
            for (uint32_t lane = member; lane < instance.layout.lanes;
                 lane += crew.meeting.members()) {
                fill_segment(instance, {pass, lane, slice});
            }
            crew.meeting.arrive_and_wait();
        }
    }
    scrub_after_key_block();  // the kernels' stack and register copies of the blocks
}

// Each member wipes its own lanes, in parallel, once the caller has read the last blocks.
void wipe_share(const Crew& crew, uint32_t member) noexcept {
    const Layout& layout = crew.instance.layout;
    for (uint32_t lane = member; lane < layout.lanes; lane += crew.meeting.members()) {
        cleanse(crew.instance.memory + size_t{lane} * layout.lane_length,
                size_t{layout.lane_length} * sizeof(Block));
    }
}

void* helper_main(void* seat_pointer) noexcept {
    const Seat& seat = *static_cast<const Seat*>(seat_pointer);
    Crew& crew = *seat.crew;
    crew.meeting.wait_open();
    fill_share(crew, seat.member);
    crew.meeting.arrive_and_wait();  // the caller has finalized
    wipe_share(crew, seat.member);
    return nullptr;
}

// A helper that cannot be started leaves its lanes to the others (the lanes are dealt among
// those that started), so the answer never depends on how many threads ran.
uint32_t start_helpers(Crew& crew, uint32_t wanted, pthread_t* ids, Seat* seats) noexcept {
    uint32_t started = 0;
    pthread_attr_t attributes;
    if (wanted == 0 || pthread_attr_init(&attributes) != 0) {
        return 0;
    }
    pthread_attr_setstacksize(&attributes, kHelperStackBytes);
    for (; started < wanted; ++started) {
        seats[started] = {&crew, started + 1};
        if (pthread_create(&ids[started], &attributes, &helper_main, &seats[started]) != 0) {
            break;
        }
    }
    pthread_attr_destroy(&attributes);
    return started;
}

// Every pass on the caller's thread and up to `threads` - 1 helpers, then the output from the
// last blocks, then the memory wiped lane by lane on the same threads.
void fill_finalize_wipe(const Instance& instance, uint8_t* out, size_t out_size) noexcept {
    Crew crew{instance, {}};
    const uint32_t wanted =
        instance.job.threads - 1 < kMaxHelperThreads ? instance.job.threads - 1 : kMaxHelperThreads;
    pthread_t ids[kMaxHelperThreads];
    Seat seats[kMaxHelperThreads];
    const uint32_t helpers = start_helpers(crew, wanted, ids, seats);
    crew.meeting.open(helpers + 1);
    fill_share(crew, 0);
    finalize(instance, out, out_size);
    crew.meeting.arrive_and_wait();
    wipe_share(crew, 0);
    for (uint32_t i = 0; i < helpers; ++i) {
        pthread_join(ids[i], nullptr);
    }
}

// The blocks in pages of their own: m' KiB can be gigabytes, and a mapping that cannot be made
// is a clear failure where an allocator might hand out less checked memory. From 2 MiB up the
// blocks start at a 2 MiB boundary and ask for transparent huge pages: the reference blocks are
// read at random across the whole memory, and 4 KiB pages cost a TLB miss and a page fault
// for most of them.
struct BlockMemory {
    void* mapping = nullptr;
    size_t mapping_bytes = 0;
    Block* blocks = nullptr;
};

constexpr size_t kHugePageBytes = size_t{2} << 20;

bool map_blocks(size_t count, BlockMemory& memory) noexcept {
    if (count > (SIZE_MAX - kHugePageBytes) / sizeof(Block)) {
        return false;
    }
    const size_t bytes = count * sizeof(Block);
    const bool huge = bytes >= kHugePageBytes;
    const size_t mapping_bytes = huge ? bytes + kHugePageBytes : bytes;
    void* mapping =
        mmap(nullptr, mapping_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) {
        return false;
    }
    auto start = reinterpret_cast<uintptr_t>(mapping);
    if (huge) {
        start = (start + kHugePageBytes - 1) & ~(uintptr_t{kHugePageBytes} - 1);
        madvise(reinterpret_cast<void*>(start), bytes, MADV_HUGEPAGE);  // a hint: may be refused
    }
    memory = {mapping, mapping_bytes, reinterpret_cast<Block*>(start)};
    return true;
}

// After fill_finalize_wipe, which wiped the blocks lane by lane.
void unmap_wiped_blocks(const BlockMemory& memory) noexcept {
    munmap(memory.mapping, memory.mapping_bytes);
}

}  // namespace

void variable_length_hash(Blake2bFamily::Compress compress, uint8_t* out, size_t out_size,
                          const Bytes* parts, size_t part_count) noexcept {
    uint8_t length[4];
    store32(length, static_cast<uint32_t>(out_size));
    Bytes prefixed[4] = {{length, sizeof length}};
    for (size_t i = 0; i < part_count && i < 3; ++i) {
        prefixed[i + 1] = parts[i];
    }
    const size_t prefixed_count = (part_count < 3 ? part_count : 3) + 1;
    if (out_size <= kHashBytes) {
        hash_parts(compress, out, out_size, prefixed, prefixed_count);
        return;
    }
    // V1 = H(LE32(T) || X); V(i+1) = H(V(i)); the first 32 bytes of each, then the last whole.
    uint8_t v[kHashBytes];
    hash_parts(compress, v, kHashBytes, prefixed, prefixed_count);
    size_t written = 0;
    while (out_size - written > kHashBytes) {
        std::memcpy(out + written, v, kHashBytes / 2);
        written += kHashBytes / 2;
        const Bytes previous{v, kHashBytes};
        uint8_t next[kHashBytes];
        hash_parts(compress, next,
                   out_size - written > kHashBytes ? kHashBytes : out_size - written, &previous, 1);
        std::memcpy(v, next, sizeof next);
        cleanse(next, sizeof next);
    }
    std::memcpy(out + written, v, out_size - written);
    cleanse(v, sizeof v);
}

bool derive(const Job& job, const Engines& engines, uint8_t* out, size_t out_size,
            AfterPrehash after_prehash, void* context, Reason& failure) noexcept {
    const Layout layout = layout_of(job);
    BlockMemory memory;
    if (!map_blocks(layout.memory_blocks, memory)) {
        failure = Reason::argon2_memory;
        return false;
    }
    uint8_t h0[kPrehashBytes];
    prehash(job, engines.blake2b, static_cast<uint32_t>(out_size), h0);
    if (after_prehash != nullptr) {
        after_prehash(context);
    }
    const Instance instance{job, engines, layout, memory.blocks};
    fill_first_blocks(instance, h0);
    cleanse(h0, sizeof h0);
    fill_finalize_wipe(instance, out, out_size);
    unmap_wiped_blocks(memory);
    scrub_after_key_block();
    return true;
}

}  // namespace blake2simd::argon2
