// The embedded local chain (`npm run chain`, and `npm start` without RPC_URL) is a Hardhat 2 node.
// Contracts are compiled by solc-js (`npm run contracts:build`), never by Hardhat, so nothing downloads.
module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
      // Instant blocks: a payout is mined as soon as it is sent.
      mining: { auto: true },
      // Nobody reads the node's log of every call (local-chain.ts drops its output once it has started),
      // and writing it took a third of the node's CPU time per payout.
      loggingEnabled: false,
      // Answer like a real node: a reverted transaction is mined with status 0, not refused at send.
      throwOnTransactionFailures: false,
      throwOnCallFailures: false,
    },
  },
};
