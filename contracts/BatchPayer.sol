// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title Plume's batch payer: many PME payments in one transaction, all or none.
/// @notice The caller pays, out of its own balance, through the allowance it gave this contract:
/// the payout hot wallet approves it once, for the maximum, which OpenZeppelin 5's ERC-20 never
/// writes down again. Nobody else can move the hot wallet's tokens through it, since the only
/// account it ever moves tokens from is `msg.sender`. It has no owner, no storage, no upgrade and
/// no way to receive ether: what it does cannot change after deployment (docs/decisions/0039).
contract BatchPayer {
    /// @notice The only token this contract moves, fixed at deployment.
    IERC20 public immutable token;

    error LengthMismatch(uint256 recipients, uint256 amounts);
    error TransferRefused(uint256 index);

    constructor(IERC20 token_) {
        token = token_;
    }

    /// @notice Pays `amounts[i]` to `recipients[i]` from the caller's balance, each a Transfer event
    /// of the token from the caller. Any payment that fails (a zero address, more than the caller
    /// holds or allowed) reverts the whole batch, so a batch is paid entirely or not at all.
    function pay(address[] calldata recipients, uint256[] calldata amounts) external {
        if (recipients.length != amounts.length) revert LengthMismatch(recipients.length, amounts.length);
        for (uint256 i = 0; i < recipients.length; ++i) {
            // The ERC-20 standard lets a token answer false instead of reverting; PME reverts, but a
            // false must still undo the batch rather than count as paid.
            if (!token.transferFrom(msg.sender, recipients[i], amounts[i])) revert TransferRefused(i);
        }
    }
}
